#!/usr/bin/env python3
"""Data-parallel linear regression with numpy and a hand-rolled all-reduce over TCP.

Each replica gets the environment a PyTorchJob pod gets (RANK, WORLD_SIZE, MASTER_ADDR,
MASTER_PORT), trains on its shard of a synthetic data set, and every epoch the replicas
average their gradients: rank 0 listens on MASTER_ADDR:MASTER_PORT, the other ranks connect
to it, send their local gradient and receive the average back. The result is the same model
full-batch gradient descent on the whole data set would give, whatever the world size.

Runs without torch: numpy is the only dependency. Exits non-zero on any error, so the
backend sees a failed replica.
"""

import argparse
import os
import socket
import struct
import sys
import time

import numpy as np

TRUE_WEIGHTS = np.array([2.0, -3.5, 1.25])
TRUE_BIAS = 0.5
SAMPLES = 4000
SEED = 1234
CONNECT_TIMEOUT_S = 60.0
IO_TIMEOUT_S = 60.0


def log(rank, message):
    print(f"[rank {rank}] {message}", flush=True)


def shard(rank, world_size):
    """Every rank draws the same data set from one seed and keeps every world_size-th row."""
    rng = np.random.default_rng(SEED)
    x = rng.normal(size=(SAMPLES, TRUE_WEIGHTS.size))
    y = x @ TRUE_WEIGHTS + TRUE_BIAS + rng.normal(scale=0.1, size=SAMPLES)
    return x[rank::world_size], y[rank::world_size]


def send_array(sock, values):
    payload = np.ascontiguousarray(values, dtype="<f8").tobytes()
    sock.sendall(struct.pack("<I", len(payload)) + payload)


def recv_exact(sock, size):
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            raise ConnectionError("peer closed the connection")
        chunks.extend(chunk)
    return bytes(chunks)


def recv_array(sock):
    (size,) = struct.unpack("<I", recv_exact(sock, 4))
    return np.frombuffer(recv_exact(sock, size), dtype="<f8")


class AllReduce:
    """Sums float64 vectors across ranks through rank 0 (a star: fine for a handful of ranks)."""

    def __init__(self, rank, world_size, host, port):
        self.rank = rank
        self.world_size = world_size
        self.peers = []
        if world_size == 1:
            return
        if rank == 0:
            self._accept(host, port)
        else:
            self._connect(host, port)

    def _accept(self, host, port):
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, port))
        server.listen(self.world_size)
        server.settimeout(CONNECT_TIMEOUT_S)
        by_rank = {}
        while len(by_rank) < self.world_size - 1:
            conn, _ = server.accept()
            conn.settimeout(IO_TIMEOUT_S)
            (peer_rank,) = struct.unpack("<I", recv_exact(conn, 4))
            by_rank[peer_rank] = conn
        server.close()
        self.peers = [by_rank[r] for r in sorted(by_rank)]
        log(self.rank, f"all {self.world_size} ranks connected")

    def _connect(self, host, port):
        # The master may start after us: retry until it listens.
        deadline = time.monotonic() + CONNECT_TIMEOUT_S
        while True:
            try:
                conn = socket.create_connection((host, port), timeout=IO_TIMEOUT_S)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        conn.sendall(struct.pack("<I", self.rank))
        self.peers = [conn]
        log(self.rank, f"connected to rank 0 at {host}:{port}")

    def sum(self, values):
        if self.world_size == 1:
            return values
        if self.rank == 0:
            total = values.copy()
            for peer in self.peers:
                total += recv_array(peer)
            for peer in self.peers:
                send_array(peer, total)
            return total
        send_array(self.peers[0], values)
        return recv_array(self.peers[0])

    def close(self):
        for peer in self.peers:
            peer.close()


def train(args):
    rank = int(os.environ.get("RANK", "0"))
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    host = os.environ.get("MASTER_ADDR", "127.0.0.1")
    port = int(os.environ.get("MASTER_PORT", "29500"))

    x, y = shard(rank, world_size)
    log(rank, f"world size {world_size}, {len(y)} samples in this shard")
    reduce = AllReduce(rank, world_size, host, port)
    weights = np.zeros(x.shape[1])
    bias = 0.0
    try:
        for epoch in range(1, args.epochs + 1):
            error = x @ weights + bias - y
            # Sums, not means, so the all-reduced totals divide into the global average exactly.
            local = np.concatenate(
                [x.T @ error, [error.sum(), 0.5 * (error**2).sum(), len(y)]]
            )
            total = reduce.sum(local)
            count = total[-1]
            grad_w = total[: weights.size] / count
            grad_b = total[weights.size] / count
            loss = total[weights.size + 1] / count
            weights -= args.lr * grad_w
            bias -= args.lr * grad_b
            print(f"epoch {epoch} loss {loss:.6f}", flush=True)
    finally:
        reduce.close()

    if rank == 0:
        print(f"learned weights {np.round(weights, 3).tolist()} bias {bias:.3f}", flush=True)
        print(f"true    weights {TRUE_WEIGHTS.tolist()} bias {TRUE_BIAS:.3f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--lr", type=float, default=0.3)
    try:
        train(parser.parse_args())
    except Exception as e:  # noqa: BLE001 - any failure must end the replica non-zero
        print(f"training failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
