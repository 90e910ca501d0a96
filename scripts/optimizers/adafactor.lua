-- Adafactor (Shazeer & Stern 2018; transformers.optimization.Adafactor defaults: no first
-- moment, factored second moment): a row and a column vector per matrix (shape[:-1] and
-- shape[:-2]+shape[-1:]), a full fp32 second moment for vectors. step() runs per
-- parameter and builds grad**2 and the reconstructed second moment (two fp32 tensors of
-- that parameter's size) before the update.
return optimizer {
  name = "adafactor",
  summary = "Adafactor: factored fp32 second moments, per-parameter step",
  aliases = { "adafactor-hf" },
  states = 1, state_dtype = "fp32", factored = true, step_temps = 2, temp_scope = "param",
}
