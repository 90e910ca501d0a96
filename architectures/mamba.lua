-- mamba.lua: attention-free Mamba language models. Every layer is one RMSNorm (backbone.layers.*.norm)
-- and one Mamba mixer, with no attention and no MLP; backbone.embeddings, backbone.norm_f and lm_head
-- (tied unless tie_word_embeddings is false).
--  * model_type "mamba" (MambaForCausalLM: state-spaces/mamba-*-hf) and "falcon_mamba"
--    (FalconMambaForCausalLM: tiiuae/falcon-mamba-7b): a Mamba-1 mixer (nn.mamba1_mixer):
--    in_proj {2 d_inner, h} (use_bias), depthwise conv1d {d_inner, 1, conv_kernel} (use_conv_bias),
--    x_proj {dt_rank + 2 state_size, d_inner}, dt_proj {d_inner, dt_rank} with bias, A_log {d_inner,
--    state_size}, D {d_inner}, out_proj {h, d_inner} (use_bias). transformers models/mamba/
--    modeling_mamba.py MambaMixer and models/falcon_mamba/modeling_falcon_mamba.py FalconMambaMixer
--    (whose B / C / dt RMS norms carry no weight: rms_forward). d_inner: config.json's
--    intermediate_size, else int(expand x hidden_size); dt_rank: time_step_rank, "auto" = ceil(h / 16)
--    (configuration_mamba.py / configuration_falcon_mamba.py: the stored intermediate_size wins over
--    expand x hidden, which is why falcon-mamba-7b's "expand": 16 beside "intermediate_size": 8192
--    loads as 8192).
--  * model_type "mamba2" (Mamba2ForCausalLM: mistralai/Mamba-Codestral-7B-v0.1): a Mamba-2 mixer
--    (nn.mamba2_mixer): in_proj {2 d_inner + 2 n_groups x state_size + num_heads, h}, conv1d over
--    d_inner + 2 n_groups x state_size, dt_bias / A_log / D per head, the gated RMSNorm {d_inner},
--    out_proj; d_inner = num_heads x head_dim (transformers models/mamba2/modeling_mamba2.py
--    Mamba2Mixer).
-- The description has no attention: heads, kv_heads and head_dim 0, no attention kv group, and one
-- recurrent state group (kind "mamba") over every layer, whose per-sequence elements are the conv
-- window plus the SSM state (vLLM mamba_utils mamba1_state_shape / mamba2_state_shape; llama.cpp
-- n_embd_r / n_embd_s). llama.cpp arch "mamba" / "mamba2" (src/llama-arch.cpp LLM_ARCH_MAMBA /
-- LLM_ARCH_MAMBA2).
local nn = require "nn"

return arch {
  name        = "mamba",
  summary     = "attention-free Mamba-1 (mamba, falcon_mamba) and Mamba-2 (mamba2) language models",
  model_types = { "mamba", "falcon_mamba", "mamba2" },
  build = function(cfg)
    local h, L, V = nn.need(cfg, "hidden_size"), nn.need(cfg, "num_hidden_layers"), nn.need(cfg, "vocab_size")
    local two = cfg.model_type == "mamba2"
    local t, lp = {}, "backbone.layers.*"
    local state, conv, di
    if two then
      local H, P = nn.need(cfg, "num_heads"), nn.need(cfg, "head_dim")
      di = H * P
      state, conv = nn.mamba2_mixer(t, lp .. ".mixer", {
        hidden = h, d_inner = di, heads = H, head_dim = P, groups = nn.int(cfg, "n_groups", 1),
        state = nn.need(cfg, "state_size"), conv = nn.int(cfg, "conv_kernel", 4), count = L,
        conv_bias = nn.flag(cfg, "use_conv_bias", true), proj_bias = nn.flag(cfg, "use_bias", false) })
    else
      di = cfg.intermediate_size ~= nil and nn.int(cfg, "intermediate_size", nil) or nn.int(cfg, "expand", 2) * h
      local R = cfg.time_step_rank
      R = (R == nil or R == "auto") and (h + 15) // 16 or nn.int(cfg, "time_step_rank", nil)
      state, conv = nn.mamba1_mixer(t, lp .. ".mixer", { hidden = h, d_inner = di,
        state = nn.need(cfg, "state_size"), conv = nn.int(cfg, "conv_kernel", 4), dt_rank = R, count = L,
        conv_bias = nn.flag(cfg, "use_conv_bias", true), proj_bias = nn.flag(cfg, "use_bias", false) })
    end
    nn.norm(t, lp .. ".norm", h, { count = L })
    -- MambaConfig / FalconMambaConfig tie by default; Mamba2Config does not (tie_word_embeddings False)
    local tied = nn.flag(cfg, "tie_word_embeddings", not two)
    nn.lm(t, { vocab = V, hidden = h, tied = tied, embed = "backbone.embeddings", norm = "backbone.norm_f" })
    return {
      arch = "mamba", family = "decoder", hidden = h, layers = L, vocab = V,
      heads = 0, kv_heads = 0, head_dim = 0, intermediate = 0, rotary_dim = 0, rope_rows = 0,
      max_position = cfg.max_position_embeddings ~= nil and nn.int(cfg, "max_position_embeddings", nil) or nil,
      tied_embeddings = tied, tensors = t,
      kv = { { layers = L, kind = "mamba", state_elems = state, conv_elems = conv } },
      block = { q_dim = 0, kv_dim = 0, ffn_dim = 0, gated = false, norm = "rms", experts = 0, experts_per_tok = 0,
                parallel_residual = false },
    }
  end,
}
