"""The calibrated model's constants that are not fitted: each value with why it is what it is.

The fit (fit.py) holds these fixed; the catalog's engine entries carry them with these sources.
"""

FIXED_CONSTANTS: dict[str, dict] = {
    "verify_outside_graph_layer_s": {
        "value": 0.0,
        "source": "vLLM captures the verify pass in (piecewise) CUDA graphs, as it does plain decoding "
                  "(vllm/v1/worker/gpu_model_runner.py)",
    },
    "allreduce_latency_s": {
        "value": 8e-6,
        "source": "an estimate, not a fit: no measurement here has more than one GPU. A small all-reduce between "
                  "NVLink-connected GPUs takes a few microseconds in NCCL (NVIDIA's library of collective "
                  "operations between GPUs) and in vLLM's own all-reduce kernel (NCCL's benchmarks, nccl-tests, "
                  "give 5–10 µs for small messages)",
    },
}
