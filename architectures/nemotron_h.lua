-- nemotron_h.lua: NVIDIA Nemotron-H (NemotronHForCausalLM, model_type nemotron_h: Nemotron-H-8B/47B/56B,
-- NVIDIA-Nemotron-Nano-9B-v2 / 12B-v2): every layer is one RMSNorm (backbone.layers.*.norm) and one
-- mixer, its kind read from hybrid_override_pattern (one character a layer): 'M' a Mamba-2 mixer
-- (nn.mamba2_mixer with d_inner = mamba_num_heads x mamba_head_dim, n_groups groups, ssm_state_size,
-- conv_kernel, use_conv_bias, use_bias), '*' GQA attention without positional encoding
-- (q/k/v/o_proj, attention_bias), '-' a non-gated squared-ReLU MLP (mixer.up_proj {I, h},
-- mixer.down_proj {h, I}, mlp_bias). backbone.embeddings, backbone.norm_f, an untied lm_head.
-- Shapes: the checkpoints' modeling_nemotron_h.py (NemotronHMamba2Mixer, NemotronHAttention,
-- NemotronHMLP, NemotronHBlock) and transformers models/nemotron_h; llama.cpp arch "nemotron_h"
-- (src/llama-arch.cpp LLM_ARCH_NEMOTRON_H: ssm_in, ssm_conv1d, ssm_dt, ssm_a, ssm_d, ssm_norm,
-- ssm_out, attn_q/k/v/output, ffn_up, ffn_down). 'E' (MoE) layers of Nemotron 3 are not modelled.
local nn = require "nn"

return arch {
  name        = "nemotron_h",
  summary     = "NVIDIA Nemotron-H hybrid (Mamba-2 / attention / squared-ReLU MLP layers by hybrid_override_pattern)",
  model_types = { "nemotron_h" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local pat = cfg.hybrid_override_pattern
    if type(pat) ~= "string" or #pat ~= L then
      error(("config: field 'hybrid_override_pattern' must be a string of %d characters"):format(L), 0)
    end
    local n = { M = 0, ["*"] = 0, ["-"] = 0 }
    for i = 1, L do
      local c = pat:sub(i, i)
      if n[c] == nil then
        error(("config: character '%s' in 'hybrid_override_pattern' (layer %d) is not M, * or -"):format(c, i - 1), 0)
      end
      n[c] = n[c] + 1
    end
    local I = nn.need(cfg, "intermediate_size")
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t, lp = {}, "backbone.layers.*"
    local ab = nn.flag(cfg, "attention_bias", false)
    local function at(c) return nn.layer_list(L, function(i) return pat:sub(i + 1, i + 1) == c end) end
    nn.attention(t, lp .. ".mixer", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = n["*"],
      qkv_bias = ab, o_bias = ab })
    nn.place(t, 1, at("*"))
    local kv = {}
    if n["*"] > 0 then kv[1] = { layers = n["*"], kv_heads = nkv, k_dim = d, v_dim = d } end
    if n.M > 0 then
      local from = #t + 1
      local H, P = nn.need(cfg, "mamba_num_heads"), nn.need(cfg, "mamba_head_dim")
      local state, conv = nn.mamba2_mixer(t, lp .. ".mixer", {
        hidden = h, d_inner = H * P, heads = H, head_dim = P, groups = nn.int(cfg, "n_groups", 1),
        state = nn.need(cfg, "ssm_state_size"), conv = nn.int(cfg, "conv_kernel", 4), count = n.M,
        conv_bias = nn.flag(cfg, "use_conv_bias", true), proj_bias = nn.flag(cfg, "use_bias", false) })
      nn.place(t, from, at("M"))
      kv[#kv + 1] = { layers = n.M, kind = "mamba", state_elems = state, conv_elems = conv }
    end
    local mb = nn.flag(cfg, "mlp_bias", false)
    local from = #t + 1
    nn.linear(t, lp .. ".mixer.up_proj", I, h, { count = n["-"], role = "mlp", bias = mb })
    nn.linear(t, lp .. ".mixer.down_proj", h, I, { count = n["-"], role = "mlp", bias = mb })
    nn.place(t, from, at("-"))
    nn.norm(t, lp .. ".norm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "backbone.embeddings", norm = "backbone.norm_f" })
    local block = nn.rms_block(nh, nkv, d, I)
    block.gated = false   -- relu2(up_proj x), one input projection
    dims.I = I
    -- no RoPE: vLLM's NemotronHAttention (vllm/model_executor/models/nemotron_h.py) runs
    -- attn(q, k, v) straight from qkv_proj and builds no get_rope cos/sin cache
    return nn.decoder_desc("nemotron_h", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv, block = block,
                                                      rope_rows = 0 })
  end,
}
