// What vLLM would show for a state: the --speculative-config flag and the engine-log line
// (specmodel/vllm.py). The generator stores both pre-formatted by Python, field by field, so the
// page assembles the line and never re-derives a number; the labels and their order are those
// of vLLM's SpecDecodingLogging.log().
import { lookup } from "../core/data.js";

export function configFlag(data, state) {
  return lookup(data, "speculative_config", state);
}

export function engineLogLine(data, state) {
  const at = (key) => lookup(data, key, state);
  return (
    "SpecDecoding metrics: " +
    `Mean acceptance length: ${at("log_mean_acceptance_length_text")}, ` +
    `Accepted throughput: ${at("log_accepted_throughput_text")} tokens/s, ` +
    `Drafted throughput: ${at("log_drafted_throughput_text")} tokens/s, ` +
    `Accepted: ${at("log_accepted_tokens")} tokens, ` +
    `Drafted: ${at("log_drafted_tokens")} tokens, ` +
    `Per-position acceptance rate: ${at("per_position_text")}, ` +
    `Avg Draft acceptance rate: ${at("log_draft_acceptance_rate_text")}%`
  );
}
