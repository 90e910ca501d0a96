-- falcon_h1.lua: TII Falcon-H1 (FalconH1ForCausalLM): every layer runs GQA attention and a Mamba-2
-- mixer side by side on the same normed input (their outputs scaled and summed into one
-- residual), then a SwiGLU feed-forward (feed_forward.gate_proj / up_proj / down_proj). The mixer's
-- width is mamba_d_ssm (else mamba_expand x hidden_size); its gated RMSNorm exists only with
-- mamba_rms_norm (the released models: false, the gate then multiplies without a weight);
-- out_proj's bias is projectors_bias. Norms: input_layernorm, pre_ff_layernorm, final_layernorm.
-- Shapes: transformers models/falcon_h1/modeling_falcon_h1.py (FalconH1Mixer, FalconH1Attention,
-- FalconH1MLP, FalconH1DecoderLayer); mup_vector is a non-persistent buffer, not a parameter.
-- Every layer caches both K/V (an attention group of all layers) and a Mamba-2 state (a "mamba"
-- group of all layers): vLLM registers both per layer, llama.cpp's falcon-h1 marks every layer
-- recurrent and gives each a KV cell too.
local nn = require "nn"

return arch {
  name        = "falcon_h1",
  summary     = "Falcon-H1 hybrid decoder (attention and Mamba-2 in parallel in every layer)",
  model_types = { "falcon_h1" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local lp, t = "model.layers.*", {}
    local ab = nn.flag(cfg, "attention_bias", false)
    nn.attention(t, lp .. ".self_attn", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = L,
      qkv_bias = ab, o_bias = ab })
    local pb = nn.flag(cfg, "mamba_proj_bias", false)
    local state, conv = nn.mamba2_mixer(t, lp .. ".mamba", {
      hidden = h, d_inner = nn.int(cfg, "mamba_d_ssm", nil) or nn.int(cfg, "mamba_expand", 2) * h,
      heads = nn.need(cfg, "mamba_n_heads"), head_dim = nn.need(cfg, "mamba_d_head"),
      groups = nn.int(cfg, "mamba_n_groups", 1), state = nn.need(cfg, "mamba_d_state"),
      conv = nn.int(cfg, "mamba_d_conv", 4), count = L, conv_bias = nn.flag(cfg, "mamba_conv_bias", true),
      proj_bias = pb, out_bias = nn.flag(cfg, "projectors_bias", false),
      norm = nn.flag(cfg, "mamba_rms_norm", false) })
    nn.gated_mlp(t, lp .. ".feed_forward", { hidden = h, width = I, count = L, bias = nn.flag(cfg, "mlp_bias", false) })
    nn.norm(t, lp .. ".input_layernorm", h, { count = L })
    nn.norm(t, lp .. ".pre_ff_layernorm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, norm = "model.final_layernorm" })
    local kv = {
      { layers = L, kv_heads = nkv, k_dim = d, v_dim = d },
      { layers = L, kind = "mamba", state_elems = state, conv_elems = conv },
    }
    return nn.decoder_desc("falcon_h1", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv,
      block = nn.rms_block(nh, nkv, d, I) })
  end,
}
