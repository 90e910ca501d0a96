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
-- ssm_out, attn_q/k/v/output, ffn_up, ffn_down).
-- Nemotron 3 (NVIDIA-Nemotron-3-Nano-30B-A3B, Nemotron-Cascade-2-30B-A3B): 'E' a MoE mixer
-- (vllm/model_executor/models/nemotron_h.py NemotronHMoE, transformers models/nemotron_h NemotronHMoE):
-- a sigmoid router gate.weight {n_routed_experts, h} with an fp32 e_score_correction_bias, routed
-- experts of the same non-gated squared-ReLU MLP (experts.N.up_proj {moe_intermediate_size, h'},
-- down_proj {h', moe_intermediate_size}) and shared_experts (up/down of
-- moe_shared_expert_intermediate_size x n_shared_experts); with moe_latent_size the routed experts
-- work at h' = moe_latent_size between fc1_latent_proj {h', h} and fc2_latent_proj {h, h'}
-- (h' = h without it). llama.cpp arch "nemotron_h_moe" (ffn_up_exps, ffn_down_exps, ffn_up_shexp,
-- ffn_down_shexp, ffn_gate_inp, exp_probs_b). Newer configs name the layers in a list,
-- layers_block_type (transformers configuration_nemotron_h.py: "mamba"/"linear_attention" = M,
-- "attention"/"full_attention" = *, "mlp" = -, "moe" = E), which is read when the pattern is absent.
local nn = require "nn"

-- layers_block_type's names -> hybrid_override_pattern's characters (transformers
-- configuration_nemotron_h.py _pattern_to_list, and remap_legacy_layer_types' older names)
local BLOCK_CHAR = { mamba = "M", linear_attention = "M", attention = "*", full_attention = "*", mlp = "-", moe = "E" }

local function layer_pattern(cfg, L)
  local pat = cfg.hybrid_override_pattern
  if pat == nil and type(cfg.layers_block_type) == "table" then
    local cs = {}
    for i, b in ipairs(cfg.layers_block_type) do
      cs[i] = BLOCK_CHAR[b]
      if not cs[i] then
        error(("config: entry %d of 'layers_block_type' (%s) is not mamba, attention, mlp or moe"):format(i - 1, tostring(b)), 0)
      end
    end
    pat = table.concat(cs)
    if #pat ~= L then
      error(("config: field 'layers_block_type' has %d entries, expected %d (num_hidden_layers)"):format(#pat, L), 0)
    end
  end
  if type(pat) ~= "string" or #pat ~= L then
    error(("config: field 'hybrid_override_pattern' must be a string of %d characters"):format(L), 0)
  end
  return pat
end

return arch {
  name        = "nemotron_h",
  summary     = "NVIDIA Nemotron-H / Nemotron 3 hybrid (Mamba-2 / attention / squared-ReLU MLP / MoE layers by hybrid_override_pattern)",
  model_types = { "nemotron_h" },
  build = function(cfg)
    local dims = nn.decoder_dims(cfg)
    local h, L, V, nh, nkv, d = dims.h, dims.L, dims.V, dims.nh, dims.nkv, dims.d
    local pat = layer_pattern(cfg, L)
    local n = { M = 0, ["*"] = 0, ["-"] = 0, E = 0 }
    for i = 1, L do
      local c = pat:sub(i, i)
      if n[c] == nil then
        error(("config: character '%s' in 'hybrid_override_pattern' (layer %d) is not M, *, - or E"):format(c, i - 1), 0)
      end
      n[c] = n[c] + 1
    end
    local I = n["-"] > 0 and nn.need(cfg, "intermediate_size") or nn.int(cfg, "intermediate_size", 0)
    local tied = nn.flag(cfg, "tie_word_embeddings", false)
    local t, lp = {}, "backbone.layers.*"
    local ab = nn.flag(cfg, "attention_bias", false)
    local function at(c) return nn.layer_list(L, function(i) return pat:sub(i + 1, i + 1) == c end) end
    nn.attention(t, lp .. ".mixer", { hidden = h, heads = nh, kv_heads = nkv, head_dim = d, count = n["*"],
      qkv_bias = ab, o_bias = ab })
    nn.place(t, 1, at("*"))
    local kv = {}
    -- layer_ids: the attention layers (with the Mamba group's, the rest are MLP layers: llama.cpp's
    -- replay follows their places, src/models/nemotron-h.cpp)
    if n["*"] > 0 then kv[1] = { layers = n["*"], kv_heads = nkv, k_dim = d, v_dim = d, layer_ids = at("*") } end
    if n.M > 0 then
      local from = #t + 1
      local H, P = nn.need(cfg, "mamba_num_heads"), nn.need(cfg, "mamba_head_dim")
      local state, conv = nn.mamba2_mixer(t, lp .. ".mixer", {
        hidden = h, d_inner = H * P, heads = H, head_dim = P, groups = nn.int(cfg, "n_groups", 1),
        state = nn.need(cfg, "ssm_state_size"), conv = nn.int(cfg, "conv_kernel", 4), count = n.M,
        conv_bias = nn.flag(cfg, "use_conv_bias", true), proj_bias = nn.flag(cfg, "use_bias", false) })
      nn.place(t, from, at("M"))
      -- layer_ids: the Mamba layers, whose place llama.cpp's graph follows (nemotron-h.cpp is_recr)
      kv[#kv + 1] = { layers = n.M, kind = "mamba", state_elems = state, conv_elems = conv, layer_ids = at("M") }
    end
    local mb = nn.flag(cfg, "mlp_bias", false)
    local from = #t + 1
    if n["-"] > 0 then
      nn.linear(t, lp .. ".mixer.up_proj", I, h, { count = n["-"], role = "mlp", bias = mb })
      nn.linear(t, lp .. ".mixer.down_proj", h, I, { count = n["-"], role = "mlp", bias = mb })
      nn.place(t, from, at("-"))
    end
    local E, k, EI, SI = 0, 0, 0, 0
    if n.E > 0 then
      E, k, EI = nn.need(cfg, "n_routed_experts"), nn.need(cfg, "num_experts_per_tok"), nn.need(cfg, "moe_intermediate_size")
      SI = nn.count(cfg, "n_shared_experts", 1) * nn.count(cfg, "moe_shared_expert_intermediate_size", 0)
      local lat = cfg.moe_latent_size ~= nil and nn.int(cfg, "moe_latent_size", nil) or nil
      local hm, mp = lat or h, lp .. ".mixer"
      from = #t + 1
      nn.param(t, mp .. ".gate.weight", { E, h }, { count = n.E, role = "router" })
      nn.router_bias(t, mp .. ".gate.e_score_correction_bias", E, n.E, true)
      nn.linear(t, mp .. ".experts.*.up_proj", EI, hm, { count = n.E * E, role = "expert", bias = mb })
      nn.linear(t, mp .. ".experts.*.down_proj", hm, EI, { count = n.E * E, role = "expert", bias = mb })
      if SI > 0 then
        nn.linear(t, mp .. ".shared_experts.up_proj", SI, h, { count = n.E, role = "shared_expert", bias = mb })
        nn.linear(t, mp .. ".shared_experts.down_proj", h, SI, { count = n.E, role = "shared_expert", bias = mb })
      end
      if lat then
        nn.linear(t, mp .. ".fc1_latent_proj", lat, h, { count = n.E, role = "mlp", bias = mb })
        nn.linear(t, mp .. ".fc2_latent_proj", h, lat, { count = n.E, role = "mlp", bias = mb })
      end
      nn.place(t, from, at("E"))
    end
    nn.norm(t, lp .. ".norm", h, { count = L })
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "backbone.embeddings", norm = "backbone.norm_f" })
    local block
    if n.E > 0 then
      -- what a token passes through in an 'E' layer: k routed experts and the shared expert
      block = nn.moe_norm(nn.rms_block(nh, nkv, d, k * EI + SI, E, k, EI), cfg)
      if n["-"] > 0 then nn.dense_layers(block, I) end
      dims.I = n["-"] > 0 and I or 0
    else
      block = nn.rms_block(nh, nkv, d, I)
      dims.I = I
    end
    block.gated = false   -- relu2(up_proj x), one input projection
    -- no RoPE: vLLM's NemotronHAttention (vllm/model_executor/models/nemotron_h.py) runs
    -- attn(q, k, v) straight from qkv_proj and builds no get_rope cos/sin cache
    return nn.decoder_desc("nemotron_h", cfg, dims, { tied_embeddings = tied, tensors = t, kv = kv, block = block,
                                                      rope_rows = 0 })
  end,
}
