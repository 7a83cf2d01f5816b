#!/usr/bin/env python3
"""Data-parallel linear regression in plain Python with a hand-rolled all-reduce over TCP.

Each replica gets the environment a PyTorchJob pod gets (RANK, WORLD_SIZE, MASTER_ADDR,
MASTER_PORT), trains on its shard of a synthetic data set, and every epoch the replicas
average their gradients: rank 0 listens on MASTER_ADDR:MASTER_PORT, the other ranks connect
to it, send their local gradient and receive the average back. The result is the same model
full-batch gradient descent on the whole data set would give, whatever the world size.

Runs on any Python 3 without packages (no torch, no numpy), so it runs in the local backend's
sandbox, which sees the system's Python only. Exits non-zero on any error, so the backend sees a
failed replica.
"""

import argparse
import json
import os
import random
import socket
import struct
import sys
import time
import urllib.error
import urllib.request

TRUE_WEIGHTS = [2.0, -3.5, 1.25]
TRUE_BIAS = 0.5
SAMPLES = 4000
SEED = 1234
CONNECT_TIMEOUT_S = 60.0
IO_TIMEOUT_S = 60.0


def log(rank, message):
    print(f"[rank {rank}] {message}", flush=True)


def report_metric(name, value, step, epoch):
    """Reports a model metric the Trainyard way.

    Where the gateway gave the job TRAINYARD_METRICS_URL and TRAINYARD_METRICS_TOKEN (local and
    Kubernetes backends), the point is POSTed there; otherwise (SageMaker, Vertex, Azure ML, or a
    post that failed) it is printed as a trainyard-metric line, which the gateway reads from the
    logs (and SageMaker from its own). The token is never printed.
    """
    url = os.environ.get("TRAINYARD_METRICS_URL")
    token = os.environ.get("TRAINYARD_METRICS_TOKEN")
    if url and token:
        point = {"name": name, "value": value, "step": step, "epoch": epoch, "time": time.time()}
        request = urllib.request.Request(
            url,
            data=json.dumps([point]).encode("utf-8"),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + token},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                answer.read()
            return
        except (OSError, urllib.error.URLError) as e:
            reason = getattr(e, "code", None) or type(e).__name__
            print(f"metrics post failed ({reason}); logging the metric instead", flush=True)
    print(f"trainyard-metric name={name} value={value:.6f} step={step} epoch={epoch}", flush=True)


def dot(a, b):
    return sum(p * q for p, q in zip(a, b))


def shard(rank, world_size):
    """Every rank draws the same data set from one seed and keeps every world_size-th row."""
    rng = random.Random(SEED)
    x, y = [], []
    for _ in range(SAMPLES):
        row = [rng.gauss(0.0, 1.0) for _ in TRUE_WEIGHTS]
        x.append(row)
        y.append(dot(row, TRUE_WEIGHTS) + TRUE_BIAS + rng.gauss(0.0, 0.1))
    return x[rank::world_size], y[rank::world_size]


def send_array(sock, values):
    payload = struct.pack(f"<{len(values)}d", *values)
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
    return list(struct.unpack(f"<{size // 8}d", recv_exact(sock, size)))


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
            total = list(values)
            for peer in self.peers:
                total = [t + v for t, v in zip(total, recv_array(peer))]
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
    features = len(TRUE_WEIGHTS)
    weights = [0.0] * features
    bias = 0.0
    try:
        for epoch in range(1, args.epochs + 1):
            error = [dot(row, weights) + bias - target for row, target in zip(x, y)]
            # Sums, not means, so the all-reduced totals divide into the global average exactly.
            local = [sum(row[j] * e for row, e in zip(x, error)) for j in range(features)]
            local += [sum(error), 0.5 * sum(e * e for e in error), float(len(y))]
            total = reduce.sum(local)
            count = total[-1]
            weights = [w - args.lr * g / count for w, g in zip(weights, total[:features])]
            bias -= args.lr * total[features] / count
            loss = total[features + 1] / count
            print(f"epoch {epoch} loss {loss:.6f}", flush=True)
            if rank == 0:
                # The loss is global (all-reduced): one rank reports it.
                report_metric("loss", loss, epoch, epoch)
    finally:
        reduce.close()

    if rank == 0:
        print(f"learned weights {[round(w, 3) for w in weights]} bias {bias:.3f}", flush=True)
        print(f"true    weights {TRUE_WEIGHTS} bias {TRUE_BIAS:.3f}", flush=True)


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
