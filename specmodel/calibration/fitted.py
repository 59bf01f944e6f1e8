"""Fitted engine constants. Written by ``specmodel calibrate --write``; do not edit by hand.

Data: specmodel/data/measurements-calibration.csv, sha256 e6cb8b1e86954c16.
"""

FITTED = {
    "vllm": {
        "constants": {
            "weight_bandwidth_efficiency": {"value": 0.730996, "stderr": 0.0143, "at_bound": False},
            "kv_bandwidth_efficiency": {"value": 0.900973, "stderr": 0.108, "at_bound": False},
            "flop_efficiency": {"value": 0.497574, "stderr": 0.072, "at_bound": False},
            "layer_launch_s": {"value": 8.30133e-05, "stderr": 3.41e-06, "at_bound": False},
            "step_overhead_s": {"value": 0.00106445, "stderr": 0.000103, "at_bound": False},
            "step_overhead_per_token_s": {"value": 4.17211e-06, "stderr": 1.01e-06, "at_bound": False},
            "ngram_lookup_per_seq_s": {"value": 2.70367e-06, "stderr": 3.28e-06, "at_bound": False},
            "draft_model_iteration_per_seq_s": {"value": 0.000122847, "stderr": 2.59e-05, "at_bound": False},
            "verify_outside_graph_layer_s": {"value": 0, "stderr": 0, "at_bound": False},
            "pass_launch_s": {"value": 0, "stderr": 0, "at_bound": False},
        },
        "nuisance": {"profiling_context_tokens": {"value": 562.428, "stderr": 103, "at_bound": False}},
        "summary": "least squares over 22 component measurements (28 values) of vLLM serving Qwen3-8B on an H100: GPUStack, Liu et al. 2026, silybench; RMS normalized residual 0.90",
    },
    "sglang": {
        "constants": {"step_overhead_s": {"value": 0.000925318, "stderr": 0.000144, "at_bound": False}},
        "summary": "the step overhead that gives GPUStack's step time at row 106 with vLLM's other constants",
    },
    "tensorrt-llm": {
        "constants": {"step_overhead_s": {"value": 0.00140532, "stderr": 0.000153, "at_bound": False}},
        "summary": "the step overhead that gives GPUStack's step time at row 107 with vLLM's other constants",
    },
}
