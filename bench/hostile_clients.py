#!/usr/bin/env python3
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

"""Hostile clients against an HTTP server on loopback, for bench/hostile_bench.sh.

  hostile_clients.py slow-readers PORT PID N PATH   N clients from 127.0.0.2 ask for PATH and never read;
                                                    prints the server's peak RSS and a 127.0.0.1 client's wait
  hostile_clients.py flood PORT N                   N idle connections from 127.0.0.2, then a 127.0.0.1 client
                                                    asks for /api/v1/health until it gets a 200; prints its wait
Only the standard library: asyncio streams, /proc for memory.
"""
import asyncio
import os
import resource
import socket
import sys
import time


def rss_kib(pid):
    """Resident memory of a process and its descendants (uvicorn's workers), in KiB."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                for child in f.read().split():
                    total += rss_kib(int(child))
    except (FileNotFoundError, ProcessLookupError):
        pass
    return total


async def open_from(port, source, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.setblocking(False)
    await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
    return s


async def victim_get(port, path, deadline_s=60.0):
    """GETs path from 127.0.0.1 until a 200 arrives whole; returns (seconds, statuses seen)."""
    started = time.monotonic()
    statuses = []
    while time.monotonic() - started < deadline_s:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            data = await asyncio.wait_for(reader.read(), 30)
            writer.close()
            status = data[9:12].decode() if data.startswith(b"HTTP/1.") else "closed"
        except (OSError, asyncio.TimeoutError) as e:
            status = type(e).__name__
        statuses.append(status)
        if status == "200":
            return time.monotonic() - started, statuses
        await asyncio.sleep(0.2)
    return None, statuses


async def slow_readers(port, pid, n, path):
    base = rss_kib(pid)
    socks = []
    peak = base
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    for _ in range(n):
        try:
            s = await open_from(port, "127.0.0.2", rcvbuf=4096)
            await loop.sock_sendall(s, request)
            socks.append(s)
        except OSError:
            pass
        peak = max(peak, rss_kib(pid))
    for _ in range(50):  # the server builds the answers over a few seconds
        await asyncio.sleep(0.1)
        peak = max(peak, rss_kib(pid))
    wait, statuses = await victim_get(port, path)
    for _ in range(20):
        await asyncio.sleep(0.1)
        peak = max(peak, rss_kib(pid))
    held = rss_kib(pid)
    for s in socks:
        s.close()
    print(f"slow readers: {len(socks)} connections asking {path}; server RSS {base / 1024:.0f} MB before, "
          f"peak {peak / 1024:.0f} MB, {held / 1024:.0f} MB while held; "
          f"a 127.0.0.1 client got its answer in {wait if wait is None else round(wait, 3)} s ({' '.join(statuses[:5])})")


async def flood(port, n):
    socks = []
    refused = 0
    for _ in range(n):
        try:
            socks.append(await open_from(port, "127.0.0.2"))
        except OSError:
            refused += 1
    await asyncio.sleep(1.0)
    wait, statuses = await victim_get(port, "/api/v1/health")
    first = statuses[0] if statuses else "-"
    print(f"flood: {len(socks)} idle connections from 127.0.0.2 ({refused} refused at connect); "
          f"a 127.0.0.1 client waited {wait if wait is None else round(wait, 3)} s for a 200 "
          f"({len(statuses)} tries, first answer {first})")
    for s in socks:
        s.close()


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    what = sys.argv[1]
    if what == "slow-readers":
        asyncio.run(slow_readers(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
    elif what == "flood":
        asyncio.run(flood(int(sys.argv[2]), int(sys.argv[3])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
