#!/usr/bin/python3
# SPDX-License-Identifier: MIT
#
# Makes small, real, multi-process PyTorch profiler traces for the measured-trace reader's tests:
#
#   tests/data/measured/torch/dp2/rank{0,1}.json.gz       2 processes, DistributedDataParallel MLP
#   tests/data/measured/torch/mixed4/rank{0..3}.json.gz   4 processes, a mix of collectives and p2p
#
# Each rank is a real process (torch.multiprocessing) in a torch.distributed gloo group on the CPU
# (rendezvous through a file:// store in a temporary folder) and records itself with
# torch.profiler.profile(activities=[CPU], record_shapes=True, schedule(wait=1, warmup=1, active=2)),
# calling profiler.step() after every iteration, so that ProfilerStep#N ranges appear. The trace of
# each rank is written with export_chrome_trace and then gzipped deterministically (level 9, no
# name, mtime 0).
#
# Run it (Debian 12: apt-get install python3-torch; use Debian's interpreter, not a pyenv one):
#
#   OMP_NUM_THREADS=1 /usr/bin/python3 scripts/make-measured-traces.py [OUTDIR]
#
# OUTDIR defaults to tests/data/measured/torch. The script prints, per case and rank, the
# collectives it issues in each step and the ones the profiler recorded in the active steps (with the
# input shapes that record_shapes captured, which the chrome export of a torch without Kineto drops).
#
# CI does not need torch: the outputs are committed, and the tests only read them. Timings differ
# from run to run, so rerunning this script changes the files; only rerun it on purpose, and update
# tests/data/measured/torch/README.md and the tests' expected counts with it.
#
# Note on torch 1.13 as Debian 12 builds it: it is built without Kineto (torch.autograd.
# kineto_available() is False), so export_chrome_trace writes the legacy "JSON array" chrome format
# of torch.autograd.profiler_util.EventList (no traceEvents/schemaVersion/distributedInfo, no args),
# and torch 1.13 names the step ranges one lower than their iteration (ProfilerStep#1 and #2 for the
# active iterations 2 and 3).

import argparse
import gzip
import os
import sys
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
from torch.profiler import ProfilerActivity, profile, schedule  # noqa: E402

WAIT, WARMUP, ACTIVE = 1, 1, 2
ITERATIONS = WAIT + WARMUP + ACTIVE  # iterations 2 and 3 are recorded

# dp2: a 3-layer MLP, 512 wide, batch 32, float32. DDP (gloo) builds one bucket of all 787968
# gradients at first, and rebuilds its buckets after the first iteration in the order the gradients
# became ready (the last layer first), the first bucket capped at 1 MiB
# (dist._DEFAULT_FIRST_BUCKET_BYTES): from then on (so in both recorded iterations) bucket 0 = fc3
# (512*512 + 512 = 262656 floats, 1050624 bytes) and bucket 1 = fc2 + fc1 (2 * 262656 = 525312
# floats, 2101248 bytes), each all-reduced (SUM) once per iteration after DDP scaled the gradients
# by 1/world into it.
DP_WIDTH, DP_BATCH = 512, 32

# mixed4: what every rank issues in each iteration, in this order (float32 unless said otherwise).
# Each entry: (what, element count of one rank's input, dtype, group, detail). Printed at the start.
MIXED4_STEP = [
    ("compute", 64 * 64, "float32", "-", "x = tanh(x @ w), x and w 64x64"),
    ("all_reduce", 1024, "float32", "world [0,1,2,3]", "SUM, sync"),
    ("all_gather", 256, "float32", "world [0,1,2,3]", "each rank 256 -> 4 x 256 out"),
    ("broadcast", 128, "int64", "world [0,1,2,3]", "src 0"),
    ("compute", 64 * 64, "float32", "-", "x = tanh(x @ w)"),
    ("reduce", 512, "float32", "world [0,1,2,3]", "SUM to dst 0"),
    ("all_to_all_single", 512, "float32", "world [0,1,2,3]", "128 elements to each rank"),
    ("all_reduce", 2048, "float32", "[0,1] on ranks 0,1; [2,3] on ranks 2,3", "SUM, sync"),
    ("send/recv", 300, "float32", "pairs (0,1), (2,3)", "even rank send -> odd rank recv, sync"),
    ("isend/irecv", 200, "float32", "pairs (0,1), (2,3)", "odd rank isend -> even rank irecv, wait"),
    ("all_reduce", 4096, "float32", "world [0,1,2,3]", "SUM, async_op=True then wait()"),
    ("compute", 64 * 64, "float32", "-", "x = tanh(x @ w)"),
]
# reduce_scatter is not in the mix: ProcessGroupGloo of torch 1.13 does not support it.


def _gzip_deterministic(src, dst):
    with open(src, "rb") as fin, open(dst, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as fout:
            fout.write(fin.read())


def _collective_summary(prof):
    """One line per collective/p2p op the profiler recorded, with its input shapes."""
    lines = []
    for evt in prof.profiler.function_events:
        name = evt.name
        if name.startswith(("gloo:", "c10d::")) or "ProcessGroup" in name:
            shapes = evt.input_shapes if evt.input_shapes else ""
            lines.append(f"    {name} thread={evt.thread} shapes={shapes}")
    return lines


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(DP_WIDTH, DP_WIDTH)
        self.fc2 = torch.nn.Linear(DP_WIDTH, DP_WIDTH)
        self.fc3 = torch.nn.Linear(DP_WIDTH, DP_WIDTH)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def _run_dp2(rank, world, prof, report):
    torch.manual_seed(0)  # same initial weights on every rank (DDP broadcasts rank 0's anyway)
    model = torch.nn.parallel.DistributedDataParallel(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    gen = torch.Generator().manual_seed(1000 + rank)  # different data per rank
    batches = [(torch.randn(DP_BATCH, DP_WIDTH, generator=gen),
                torch.randn(DP_BATCH, DP_WIDTH, generator=gen)) for _ in range(ITERATIONS)]
    dist.barrier()
    prof.start()
    for x, y in batches:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        prof.step()
    prof.stop()
    data = model._get_ddp_logging_data()
    report.append(f"  ddp bucket_sizes (bytes, first build): {data.get('bucket_sizes')}")
    report.append(f"  ddp rebuilt_bucket_sizes (bytes): {data.get('rebuilt_bucket_sizes')}")
    report.append(f"  ddp rebuilt_per_bucket_param_indices: {data.get('rebuilt_per_bucket_param_indices')}")


def _run_mixed4(rank, world, prof, report):
    torch.manual_seed(0)
    g01 = dist.new_group([0, 1])  # every rank must create every group, in the same order
    g23 = dist.new_group([2, 3])
    sub = g01 if rank < 2 else g23
    peer = rank + 1 if rank % 2 == 0 else rank - 1
    w = torch.randn(64, 64) / 8
    x = torch.randn(64, 64)
    dist.barrier()
    prof.start()
    for it in range(ITERATIONS):
        x = torch.tanh(x @ w)
        t = torch.full((1024,), float(rank + it))
        dist.all_reduce(t)
        mine = torch.full((256,), float(rank))
        gathered = [torch.empty(256) for _ in range(world)]
        dist.all_gather(gathered, mine)
        b = torch.arange(128, dtype=torch.int64) if rank == 0 else torch.empty(128, dtype=torch.int64)
        dist.broadcast(b, src=0)
        x = torch.tanh(x @ w)
        r = torch.ones(512)
        dist.reduce(r, dst=0)
        a2a_in = torch.arange(512, dtype=torch.float32) + 1000 * rank
        a2a_out = torch.empty(512)
        dist.all_to_all_single(a2a_out, a2a_in)
        s = torch.full((2048,), float(rank))
        dist.all_reduce(s, group=sub)
        p = torch.full((300,), float(rank))
        if rank % 2 == 0:
            dist.send(p, dst=peer)
        else:
            dist.recv(p, src=peer)
        q = torch.full((200,), float(rank))
        if rank % 2 == 1:
            req = dist.isend(q, dst=peer)
        else:
            req = dist.irecv(q, src=peer)
        req.wait()
        work = dist.all_reduce(torch.ones(4096), async_op=True)
        work.wait()
        x = torch.tanh(x @ w)
        prof.step()
    prof.stop()


CASES = {"dp2": (2, _run_dp2), "mixed4": (4, _run_mixed4)}


def _worker(rank, case, world, init_file, outdir, reportdir):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + init_file, rank=rank, world_size=world)
    casedir = os.path.join(outdir, case)
    tmp_json = os.path.join(reportdir, f"{case}-rank{rank}.json")
    report = []

    def on_ready(p):
        p.export_chrome_trace(tmp_json)
        report.append(f"  profiler recorded (active steps), rank {rank}:")
        report.extend(_collective_summary(p))

    prof = profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                   schedule=schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1),
                   on_trace_ready=on_ready)
    CASES[case][1](rank, world, prof, report)
    dist.barrier()
    dist.destroy_process_group()
    _gzip_deterministic(tmp_json, os.path.join(casedir, f"rank{rank}.json.gz"))
    with open(os.path.join(reportdir, f"{case}-rank{rank}.txt"), "w") as f:
        f.write("\n".join(report) + "\n")


def _describe():
    print("dp2: each iteration on ranks 0 and 1: zero_grad, forward (3 x Linear(512, 512), ReLU), "
          "mse_loss, backward (DDP scales each gradient by 1/2 into its bucket, then all_reduce SUM of each "
          "of the 2 float32 buckets, async on gloo's threads), SGD step")
    print(f"  buckets: fc3 = {DP_WIDTH * DP_WIDTH + DP_WIDTH} floats, fc2 + fc1 = "
          f"{2 * (DP_WIDTH * DP_WIDTH + DP_WIDTH)} floats")
    print("mixed4: each iteration on ranks 0..3:")
    for what, n, dtype, group, detail in MIXED4_STEP:
        print(f"  {what:18} {n:5} x {dtype:7} group {group}; {detail}")


def main():
    ap = argparse.ArgumentParser(description="Makes the measured torch traces of tests/data/measured/torch.")
    ap.add_argument("outdir", nargs="?",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                                         "measured", "torch"))
    ap.add_argument("--case", choices=sorted(CASES), action="append")
    args = ap.parse_args()
    outdir = os.path.abspath(args.outdir)
    print(f"torch {torch.__version__}, kineto_available={torch.autograd.kineto_available()}, "
          f"gloo={dist.is_gloo_available()}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}")
    _describe()
    for case in args.case or sorted(CASES):
        world = CASES[case][0]
        os.makedirs(os.path.join(outdir, case), exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            init_file = os.path.join(tmp, "store")
            mp.spawn(_worker, args=(case, world, init_file, outdir, tmp), nprocs=world, join=True)
            print(f"{case}: wrote {os.path.join(outdir, case)}/rank{{0..{world - 1}}}.json.gz")
            for rank in range(world):
                with open(os.path.join(tmp, f"{case}-rank{rank}.txt")) as f:
                    sys.stdout.write(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
