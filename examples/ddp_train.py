#!/usr/bin/env python3
"""PyTorch DistributedDataParallel on CPU: a tiny regression model on synthetic data.

Uses only what a PyTorchJob replica gets from its environment: init_method="env://" reads
MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE, which both Kubeflow and Trainyard's local
backend set. The gloo backend needs no GPU.

Not run by Trainyard's own tests (the build machine has no torch): it was checked by reading
against the torch.distributed, DistributedDataParallel and DistributedSampler documentation.
Run it where torch is installed, e.g. Debian's python3-torch for the local backend.
"""

import argparse
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

TRUE_WEIGHTS = torch.tensor([[2.0], [-3.5], [1.25]])
TRUE_BIAS = 0.5
SAMPLES = 4096


def dataset():
    # The same seed on every rank gives every rank the same data; the sampler splits it.
    generator = torch.Generator().manual_seed(1234)
    x = torch.randn(SAMPLES, TRUE_WEIGHTS.shape[0], generator=generator)
    noise = 0.1 * torch.randn(SAMPLES, 1, generator=generator)
    return TensorDataset(x, x @ TRUE_WEIGHTS + TRUE_BIAS + noise)


def train(args):
    dist.init_process_group(backend="gloo", init_method="env://")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    torch.manual_seed(0)  # identical initial weights everywhere (DDP also broadcasts rank 0's)

    data = dataset()
    sampler = DistributedSampler(data, num_replicas=world_size, rank=rank, shuffle=True)
    loader = DataLoader(data, batch_size=args.batch_size, sampler=sampler)
    model = DistributedDataParallel(nn.Linear(TRUE_WEIGHTS.shape[0], 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    print(f"rank {rank} of {world_size}: {len(sampler)} samples per epoch", flush=True)
    for epoch in range(1, args.epochs + 1):
        sampler.set_epoch(epoch)  # a different shuffle each epoch, the same on every rank
        total = torch.zeros(2)
        for x, y in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()  # DDP averages the gradients across ranks here
            optimizer.step()
            total += torch.tensor([loss.item() * len(x), len(x)])
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        print(f"epoch {epoch} loss {(total[0] / total[1]).item():.6f}", flush=True)

    if rank == 0:
        layer = model.module
        learned = [round(w, 3) for w in layer.weight.detach().flatten().tolist()]
        print(f"learned weights {learned} bias {layer.bias.item():.3f}", flush=True)
        print(f"true    weights {TRUE_WEIGHTS.flatten().tolist()} bias {TRUE_BIAS:.3f}", flush=True)
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    train(parser.parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
