"""Fitted engine constants. Written by ``specmodel calibrate --write``; do not edit by hand.

Data: specmodel/data/measurements-calibration.csv, sha256 e6cb8b1e86954c16.
"""

FITTED = {
    "vllm": {
        "constants": {
            "weight_bandwidth_efficiency": {"value": 0.732592, "stderr": 0.013, "at_bound": False},
            "kv_bandwidth_efficiency": {"value": 0.906058, "stderr": 0.0992, "at_bound": False},
            "flop_efficiency": {"value": 0.483725, "stderr": 0.0566, "at_bound": False},
            "layer_launch_s": {"value": 6.11856e-05, "stderr": 3.77e-06, "at_bound": False},
            "step_overhead_s": {"value": 0.00108137, "stderr": 9.14e-05, "at_bound": False},
            "step_overhead_per_token_s": {"value": 3.82377e-06, "stderr": 8.79e-07, "at_bound": False},
            "ngram_lookup_per_seq_s": {"value": 3.52761e-06, "stderr": 3.02e-06, "at_bound": False},
            "draft_model_iteration_per_seq_s": {"value": 0.000117166, "stderr": 2.31e-05, "at_bound": False},
            "pass_launch_s": {"value": 0.000604032, "stderr": 6.37e-05, "at_bound": False},
            "verify_outside_graph_layer_s": {"value": 0, "stderr": 0, "at_bound": False},
            "allreduce_latency_s": {"value": 8e-06, "stderr": 0, "at_bound": False},
        },
        "nuisance": {"profiling_context_tokens": {"value": 561.808, "stderr": 95.1, "at_bound": False}},
        "summary": "least squares over 24 component measurements (32 values) of vLLM serving Qwen3-8B on an H100: GPUStack, Liu et al. 2026, silybench; RMS normalized residual 0.86",
    },
    "sglang": {
        "constants": {"step_overhead_s": {"value": 0.000940551, "stderr": 0.000144, "at_bound": False}},
        "summary": "the step overhead that gives GPUStack's plain-decoding step time in this engine (row 106 of specmodel validate) with vLLM's other constants",
    },
    "tensorrt-llm": {
        "constants": {"step_overhead_s": {"value": 0.00142055, "stderr": 0.000153, "at_bound": False}},
        "summary": "the step overhead that gives GPUStack's plain-decoding step time in this engine (row 107 of specmodel validate) with vLLM's other constants",
    },
}
