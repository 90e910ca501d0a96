-- hunyuandit.lua: Hunyuan-DiT: HunyuanDiT2DModel (40 blocks of AdaLN-shift self-attention,
-- cross-attention to the concatenated text tokens, GELU MLP; long skip connections into the
-- second half), the bilingual CLIP text encoder (a BertModel), the mT5-XL encoder and the
-- SDXL AutoencoderKL. Layout of diffusers hunyuan_transformer_2d.py and embeddings.py
-- (HunyuanCombinedTimestepTextSizeStyleEmbedding, HunyuanDiTAttentionPool).
local nn = require "nn"
local P = require "gen_parts"

local function embedders(t, c, d)
  local ca, ca5, pooled = nn.int(c, "cross_attention_dim", 1024), nn.int(c, "cross_attention_dim_t5", 2048),
    nn.int(c, "pooled_projection_dim", 1024)
  local tl, tl5 = nn.int(c, "text_len", 77), nn.int(c, "text_len_t5", 256)
  P.mlp2(t, "text_embedder", ca5, 4 * ca5, ca)
  nn.param(t, "text_embedding_padding", { tl + tl5, ca })
  P.conv(t, "pos_embed.proj", d, nn.int(c, "in_channels", 4), { 2, 2 }, { role = "embed" })
  local e = "time_extra_emb."
  P.mlp2(t, e .. "timestep_embedder", 256, d)
  nn.param(t, e .. "pooler.positional_embedding", { tl5 + 1, ca5 })
  for _, q in ipairs { "k_proj", "q_proj", "v_proj" } do P.lin(t, e .. "pooler." .. q, ca5, ca5) end
  P.lin(t, e .. "pooler.c_proj", pooled, ca5)
  local extra = pooled
  if c.use_style_cond_and_image_meta_size ~= false then
    nn.embed(t, e .. "style_embedder", 1, d)
    extra = 256 * 6 + d + pooled
  end
  P.mlp2(t, e .. "extra_embedder", extra, 4 * d, d)
  return ca
end

local function transformer(c)
  local nh, hd = nn.int(c, "num_attention_heads", 16), nn.int(c, "attention_head_dim", 88)
  local d, L = nh * hd, nn.int(c, "num_layers", 40)
  local F = math.floor(d * (c.mlp_ratio or 4.3637))
  local t = {}
  local ca = embedders(t, c, d)
  local b = "blocks.*."
  P.lin(t, b .. "norm1.linear", d, d, { count = L, role = "other" })
  P.gnorm(t, b .. "norm1.norm", d, L)
  -- attention with bias and LayerNorm q/k norms over one head (qk_norm = "layer_norm")
  P.attn(t, b .. "attn1", d, d, L, { qk_norm = hd, norm_bias = true })
  P.gnorm(t, b .. "norm2", d, L)
  P.attn(t, b .. "attn2", d, ca, L, { qk_norm = hd, norm_bias = true })
  P.gnorm(t, b .. "norm3", d, L)
  P.ff(t, b .. "ff", d, F, L)
  -- skip = layer > num_layers // 2
  local skips = L - 1 - L // 2
  P.gnorm(t, "blocks.*.skip_norm", 2 * d, skips)
  P.lin(t, "blocks.*.skip_linear", d, 2 * d, { count = skips, role = "other" })
  P.lin(t, "norm_out.linear", 2 * d, d, { role = "other" })
  local outc = nn.int(c, "in_channels", 4) * (c.learn_sigma == false and 1 or 2)
  P.lin(t, "proj_out", 4 * outc, d, { role = "other" })
  return t, d, F, nh, L
end

-- BertModel (the bilingual CLIP text tower): embeddings, post-LN layers, pooler.
local function bert(c)
  local t, d, L, F = {}, c.hidden, c.layers, c.ffn
  nn.embed(t, "embeddings.word_embeddings", c.vocab, d)
  nn.embed(t, "embeddings.position_embeddings", 512, d, { role = "pos_embed" })
  nn.embed(t, "embeddings.token_type_embeddings", 2, d, { role = "pos_embed" })
  P.gnorm(t, "embeddings.LayerNorm", d)
  local b = "encoder.layer.*."
  for _, q in ipairs { "query", "key", "value" } do P.lin(t, b .. "attention.self." .. q, d, d, { count = L }) end
  P.lin(t, b .. "attention.output.dense", d, d, { count = L })
  P.gnorm(t, b .. "attention.output.LayerNorm", d, L)
  P.lin(t, b .. "intermediate.dense", F, d, { count = L, role = "mlp" })
  P.lin(t, b .. "output.dense", d, F, { count = L, role = "mlp" })
  P.gnorm(t, b .. "output.LayerNorm", d, L)
  P.lin(t, "pooler.dense", d, d, { role = "other" })
  return t
end

return arch {
  name = "hunyuandit",
  summary = "Hunyuan-DiT: 1.5B DiT + bilingual CLIP (BERT) + mT5-XL + SDXL VAE",
  model_types = { "hunyuandit", "HunyuanDiT2DModel", "HunyuanDiTPipeline" },
  build = function(cfg)
    local c = nn.sub(cfg, "transformer") or cfg
    local tens, d, F, nh, L = transformer(c)
    return P.description {
      arch = "hunyuandit", hidden = d, layers = L, heads = nh, ffn = F,
      tensors = P.pipeline {
        { "denoiser", "transformer", tens },
        -- text_encoder/config.json: BertModel, vocab 47020, hidden 1024, 24 layers, FFN 4096
        { "text_encoder", "text_encoder", bert { vocab = 47020, hidden = 1024, layers = 24, ffn = 4096 } },
        -- text_encoder_2/config.json: mT5-XL encoder (T5EncoderModel, gated GELU)
        { "text_encoder_2", "text_encoder_2", P.t5_encoder { vocab = 250112, d_model = 2048, d_ff = 5120, heads = 32, d_kv = 64 } },
        { "vae", "vae", P.vae_kl(P.SD_VAE) },
      },
      pipeline = {
        vae_class = "AutoencoderKL", -- diffusers class (scripts/workloads/image.lua: block-level groups)
        kind = "dit", vae_scale = 8, latent_channels = 4, patch = 2, cfg = true, cfg_batched = true,
        text_len = nn.int(c, "text_len_t5", 256), joint = false, vae_peak_channels = 128,
        act_family = "image", text_hidden = 2048, te_layers = 24,
      },
    }
  end,
}
