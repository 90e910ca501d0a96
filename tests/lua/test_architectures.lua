-- test_architectures.lua: builds every preset with its architecture script (in a sandbox like the
-- engine's), validates each description and checks exact parameter counts and KV sizes.
-- Run from the repository root: lua5.4 tests/lua/test_architectures.lua
package.path = "scripts/?.lua;architectures/?.lua;" .. package.path
arch = require("prelude").arch

local ARCH_FILES = { "llama", "moe", "gemma", "deepseek", "gpt_oss", "gpt_neox", "gpt2",
                     "falcon", "bloom", "bert", "t5", "llama4", "qwen3_next", "qwen2_vl", "mllama", "mistral3", "glm4_moe",
                     "qwen3_5", "minimax_m2", "granitemoehybrid", "falcon_h1", "lfm2", "qwen3_vl",
                     -- architecture families A
                     "phi", "cohere", "starcoder2", "olmo", "gemma3n" }
-- arch-families-b
for _, n in ipairs { "internlm", "glm4", "exaone4", "seed_oss", "hunyuan", "ernie4_5", "ernie4_5_moe", "dots1", "bamba", "jamba", "nemotron_h" } do ARCH_FILES[#ARCH_FILES + 1] = n end
-- arch-families-c
for _, n in ipairs { "kimi_linear", "minimax" } do ARCH_FILES[#ARCH_FILES + 1] = n end
-- arch-mamba
ARCH_FILES[#ARCH_FILES + 1] = "mamba"
-- arch-dense
for _, n in ipairs { "apertus", "arcee", "nemotron", "stablelm", "gpt_bigcode", "exaone" } do ARCH_FILES[#ARCH_FILES + 1] = n end
-- arch-vlm
ARCH_FILES[#ARCH_FILES + 1] = "llava"
ARCH_FILES[#ARCH_FILES + 1] = "internvl"
ARCH_FILES[#ARCH_FILES + 1] = "idefics3"
ARCH_FILES[#ARCH_FILES + 1] = "glm4v"
-- arch-moe
for _, n in ipairs { "dbrx", "bailing_moe" } do ARCH_FILES[#ARCH_FILES + 1] = n end
-- arch-moe2
ARCH_FILES[#ARCH_FILES + 1] = "minicpm3"
ARCH_FILES[#ARCH_FILES + 1] = "afmoe"
ARCH_FILES[#ARCH_FILES + 1] = "longcat_flash"
-- arch-new3
ARCH_FILES[#ARCH_FILES + 1] = "zamba2"
ARCH_FILES[#ARCH_FILES + 1] = "kimi_vl"
ARCH_FILES[#ARCH_FILES + 1] = "phi3_v"

-- Published exact counts (shared/calibration/models.jsonl param_count, or the exact values
-- models_README.md derives / that public model cards report, as noted).
local EXPECTED_PARAMS = {
  ["meta-llama/Llama-2-7b-hf"]          = 6738415616,
  ["meta-llama/Llama-2-70b-hf"]         = 68976648192,
  ["meta-llama/Meta-Llama-3-8B"]        = 8030261248,
  ["meta-llama/Llama-3.1-8B"]           = 8030261248,
  ["meta-llama/Llama-3.1-70B"]          = 70553706496,
  ["meta-llama/Llama-3.2-1B"]           = 1235814400,
  ["meta-llama/Llama-3.2-3B"]           = 3212749824,
  ["mistralai/Mistral-7B-v0.1"]         = 7241732096,
  ["mistralai/Mixtral-8x7B-v0.1"]       = 46702792704,
  ["Qwen/Qwen2.5-7B"]                   = 7615616512,
  ["Qwen/Qwen2.5-14B"]                  = 14770033664,
  ["Qwen/Qwen2.5-72B-Instruct"]         = 72706203648,
  ["Qwen/Qwen3-8B"]                     = 8190735360,
  ["Qwen/Qwen3-4B"]                     = 4022468096, -- tied embedding counted once (Z-Image's text encoder)
  ["Qwen/Qwen3-30B-A3B"]                = 30532122624,
  -- Qwen2-MoE: Qwen1.5-MoE-A2.7B's safetensors total (the Hub's "14.3B"; Keras Hub's
  -- qwen1.5_moe_2.7b_en preset lists the same params). Qwen2-57B-A14B: no exact published
  -- figure found (card "57B"); the inventory's count, checked by hand from the config: embed +
  -- lm_head 2 x 544,538,624 + norm 3,584 + 28 layers x 2,011,413,504 (attention with q/k/v biases
  -- 29,364,736, 64 experts x 27,525,120, router 229,376, shared expert 220,200,960, its gate
  -- 3,584, norms 7,168)
  ["Qwen/Qwen1.5-MoE-A2.7B"]            = 14315784192,
  ["Qwen/Qwen2-57B-A14B"]               = 57408658944,
  ["google/gemma-2-9b-it"]              = 9241705984,
  ["google/gemma-3-27b-it"]             = 27432406640,  -- whole multimodal checkpoint
  ["microsoft/Phi-3-mini-4k-instruct"]  = 3821079552,
  ["deepseek-ai/DeepSeek-V2-Lite"]      = 15706484224,
  ["openai/gpt-oss-20b"]                = 20914757184,
  ["openai-community/gpt2"]             = 124439808,
  ["google-bert/bert-large-uncased"]    = 335141888,
  ["tiiuae/falcon-7b"]                  = 6921720704,   -- README formula (unverified count)
  ["bigscience/T0_3B"]                  = 2849757184,   -- = t5-v1_1-xl / flan-t5-xl count
  ["EleutherAI/pythia-2.8b"]            = 2775208960,   -- Pythia model card
  ["bigscience/bloomz-7b1"]             = 7069016064,   -- = bloom-7b1 (HF reported)
  -- serve2: safetensors totals the Hugging Face model pages report (109B / 402B / 24B)
  ["meta-llama/Llama-4-Scout-17B-16E-Instruct"]      = 108641793536,
  ["meta-llama/Llama-4-Maverick-17B-128E-Instruct"]  = 401583781376,
  ["mistralai/Mistral-Small-3.1-24B-Instruct-2503"]  = 24011361280,
  ["meta-llama/Llama-3.2-11B-Vision"]                = 10670220835,
  -- LLaVA-1.5-7B: sum(p.numel() for p in LlavaForConditionalGeneration.from_pretrained(
  -- "llava-hf/llava-1.5-7b-hf").parameters()) = 7,063,427,072, as public scripts print it:
  -- Vicuna-7B with 32,064 rows 6,738,939,904 + CLIP ViT-L/14-336 303,507,456 (all 24 layers and
  -- post_layernorm) + projector 20,979,712. LLaVA-NeXT-Mistral-7B: no exact published figure
  -- found (the Hub's "7.57B"): Mistral-7B with 32,064 rows 7,242,256,384 + the same tower and
  -- projector + image_newline 4,096, the inventory's count.
  ["llava-hf/llava-1.5-7b-hf"]                       = 7063427072,
  ["llava-hf/llava-v1.6-mistral-7b-hf"]              = 7566747648,
  -- LLaVA-OneVision-Qwen2-7B: no exact published figure found (the Hub's "8.03B"); the inventory's,
  -- checked by hand: Qwen2-7B with 152,128 rows 7,616,075,264 + SigLIP-so400m with 26 layers, no
  -- head 397,747,744 (patch conv 678,528, 729 positions 839,808, 26 x 15,239,504, post_layernorm
  -- 2,304) + projector 16,980,992 (1152 -> 3584 -> 3584, biased) + image_newline 3,584
  ["llava-hf/llava-onevision-qwen2-7b-ov-hf"]        = 8030807584,
  -- InternVL3-8B-hf: no exact published figure found (the Hub's "7.94B"); the inventory's, checked
  -- by hand: Qwen2.5-7B 7,615,616,512 less 390 vocabulary rows x 3584 x 2 = 7,612,820,992 +
  -- InternViT-300M 304,012,288 (cls 1,024, biased 14 x 14 patch conv 603,136, 1025 positions
  -- 1,049,600, 24 layers x 12,598,272: biased q/k/v/projection 4,198,400, fc1 + fc2 8,393,728, two
  -- LayerNorms 4,096, lambda_1 / lambda_2 2,048; no final norm under use_mean_pooling) + projector
  -- 27,540,480 (LayerNorm over 4096, linear_1 4096 -> 3584, linear_2 3584 -> 3584, biased)
  ["OpenGVLab/InternVL3-8B-hf"]                      = 7944373760,
  -- InternVL3.5-8B-HF: 8,528,318,464, the BF16 parameter total of the Hub's metadata
  -- (huggingface.co/api/models/OpenGVLab/InternVL3_5-8B-HF, as a public deployment note quotes it; a
  -- conversion of the original checkpoint to the -HF keys loads the same count from 841 tensors):
  -- Qwen3-8B 8,190,735,360 + InternViT-300M 304,012,288 + projector 33,570,816 (LayerNorm over 4096,
  -- linear_1 and linear_2 4096 -> 4096, biased)
  ["OpenGVLab/InternVL3_5-8B-HF"]                    = 8528318464,
  -- InternVL3.5-1B-HF: 1,060,897,792 "unique parameters", as public reports pinning the checkpoint
  -- (revision 9191dbcc) count them: Qwen3-0.6B's shapes untied 751,632,384 + InternViT-300M
  -- 304,012,288 + projector 5,253,120 (4096 -> 1024 -> 1024)
  ["OpenGVLab/InternVL3_5-1B-HF"]                    = 1060897792,
  -- SmolVLM-256M: 256,484,928, the parameter count published for SmolVLM-256M-Instruct runs and for
  -- docling-project/SmolDocling-256M-preview (the same Idefics3 shapes; 513,028,808 B of bf16
  -- safetensors with the header): text 134,588,736 + lm_head 28,385,280 + SigLIP-B/16 at 512 px
  -- 86,433,024 + connector 12,288 x 576
  ["HuggingFaceTB/SmolVLM-256M-Instruct"]            = 256484928,
  -- GLM-4.6V-Flash: 10,292,777,472, the count published for its 20.6 GB bf16 checkpoint (and a
  -- LoRA training log's "all params 10,327,562,752" less its 34,785,280 adapter parameters): the
  -- GLM-4-9B-0414 decoder 9,400,279,040 + the vision tower and merger 892,498,432
  ["zai-org/GLM-4.6V-Flash"]                         = 10292777472,
  -- GLM-4.5V: 107,710,933,120, the parameter total a public inventory of the checkpoint prints (46
  -- safetensors files, 18,106 tensors, no MTP layer): GLM-4.5-Air's main layers 106,852,251,264 +
  -- the tower and merger 858,681,856 (GLM-4.6V-Flash's 892,498,432 less a 10944- instead of
  -- 13696-wide merger SwiGLU, 3 x 4096 x 2752)
  ["zai-org/GLM-4.5V"]                               = 107710933120,
  -- Qwen2.5-72B's 72,706,203,648 + ViT 704,573,696 (patch 1,505,280 + 32 x 19,840,512
  -- + merger 68,172,032), the safetensors total of the model page
  ["Qwen/Qwen2.5-VL-72B-Instruct"]                   = 73410777344,
  ["Qwen/Qwen2.5-VL-7B-Instruct"]                    = 8292166656,
  -- 12 x 27,263,488 (gated attention) + 36 x 33,718,464 (DeltaNet) + 48 x 1,614,813,184
  -- (MoE 512 x 3,145,728 + shared 3,145,728 + gates 1,050,624 + norms) + 622,331,904 (embed,
  -- head, norm); the checkpoint's mtp.* weights are not counted
  ["Qwen/Qwen3-Next-80B-A3B-Instruct"]               = 79674391296,
  -- GLM-4.5 family, main layers only (the checkpoint's MTP layer left out, as vLLM serves it).
  -- GLM-4.5: embed + lm_head 2 x 775,946,240 + norm 5,120 + 3 dense layers x 325,083,392 + 89 MoE
  -- layers x 3,935,625,632 (160 experts x 23,592,960 + shared 23,592,960 + gate 819,200 +
  -- e_score_correction_bias 160 + attention 136,329,472 with qkv bias and q/k norm + norms
  -- 10,240). Published "355B total / 32B active" (active here: 33,632,266,144, 32,080,373,664
  -- without embed and lm_head). The whole checkpoint, with the MTP layer (3,935,625,632 +
  -- enorm, hnorm, eh_proj, shared_head.norm 52,444,160) and its embed_tokens/shared_head.head
  -- copies (1,551,892,480), is 358,337,791,296: the Hub's "358B params".
  ["zai-org/GLM-4.5"]                                = 352797829024,
  ["zai-org/GLM-4.6"]                                = 352797829024,  -- GLM-4.5's shapes
  -- GLM-4.5-Air: 2 x 620,756,992 + 4,096 + 1 dense x 243,554,304 + 45 MoE x 2,341,492,864
  -- (no q/k norm). Published "106B total / 12B active" (active: 13,424,129,664, 12,182,615,680
  -- without embed and lm_head); with the MTP layer (2,341,492,864 + 33,566,720) and its copies
  -- (1,241,513,984) 110,468,824,832, the Hub's "110B".
  ["zai-org/GLM-4.5-Air"]                            = 106852251264,
  -- Qwen3.5 (text + vision tower, the checkpoint's MTP layer left out as vLLM serves it).
  -- Qwen3.6-27B: text 26,895,998,464 (embed + lm_head 2 x 1,271,398,400, 16 gated-attention layers
  -- x 120,587,264, 48 DeltaNet layers x 101,877,856 (in_proj_qkv 52,428,800 + z 31,457,280 + b, a
  -- 2 x 245,760 + conv 40,960 + dt_bias, A_log 96 + norm 128 + out_proj 31,457,280), 64 MLPs x
  -- 267,386,880, norms) + vision 460,730,096; with the MTP layer (424,699,392) 27,781,427,952, the
  -- checkpoint total its published tensor list sums to.
  ["Qwen/Qwen3.6-27B"]                               = 27356728560,
  -- Qwen3-VL (text + vision tower with 3 deepstack mergers): the Hub API's safetensors totals
  -- (huggingface.co/api/models/Qwen/Qwen3-VL-2B-Instruct and -8B-Instruct, as public loaders
  -- assert them; the 8B's model.safetensors.index.json total_size 17,534,247,392 B = 2 x it), the
  -- 4B's count transformers prints for Qwen3VLForConditionalGeneration (tied lm_head counted once),
  -- the 32B's element total of its 1,058 safetensors tensors, and the paramCount of the 30B-A3B
  -- and 235B-A22B in Fireworks' model catalog (docs.fireworks.ai "Models").
  ["Qwen/Qwen3-VL-2B-Instruct"]                      = 2127532032,
  ["Qwen/Qwen3-VL-4B-Instruct"]                      = 4437815808,
  ["Qwen/Qwen3-VL-8B-Instruct"]                      = 8767123696,
  ["Qwen/Qwen3-VL-32B-Instruct"]                     = 33357390064,
  ["Qwen/Qwen3-VL-30B-A3B-Instruct"]                 = 31070754032,
  ["Qwen/Qwen3-VL-235B-A22B-Instruct"]               = 235670022896,
  -- Qwen3.5-35B-A3B: text 34,660,610,688 (active 3,454,988,928: 8 of 256 experts) + vision
  -- 446,571,248; with the MTP layer (844,640,768) 35,951,822,704, the "35.95B" reported for it.
  ["Qwen/Qwen3.5-35B-A3B"]                           = 35107181936,
  -- Qwen3.5-397B-A17B: text 396,346,350,336 (active 17,349,040,896: 10 of 512 experts) + vision
  -- 456,010,480 = the published "397B"; with the MTP layer (6,595,568,128) 403,397,928,944.
  ["Qwen/Qwen3.5-397B-A17B"]                         = 396802360816,
  -- Kimi-K2 (DeepSeek-V3 shape, no MTP layer in its checkpoint): embed + lm_head 2 x 1,174,405,120
  -- + norm 7,168 + 61 layers x (MLA 101,124,096 + norms 14,336) + 1 dense MLP 396,361,728 + 60 MoE
  -- layers x (384 + 1 shared experts x 44,040,192 + gate 2,752,512 + bias 384) = 1,026,408,232,448:
  -- the published "1T total" (1.026T; the Hub's 1.03T adds the fp8 weight_scale_inv tensors).
  -- Active: 32.86B (6.17B attention, 0.40B dense MLP, 60 x 9 experts 23.78B, routers, embed and
  -- lm_head), the published "32B activated".
  ["moonshotai/Kimi-K2-Instruct"]                    = 1026408232448,
  -- DeepSeek-V3.2-Exp: DeepSeek-V3's 671,026,419,200 (the V3 preset's count: embed + lm_head
  -- 2 x 926,679,040 + 61 MLA layers + 3 dense MLPs + 58 MoE layers of 256 + 1 experts; the published
  -- "671B" of the main model, MTP layer excluded) + 61 indexers x 13,959,424 (wq_b 64 x 128 x 1536
  -- = 12,582,912, wk 128 x 7168 = 917,504, k_norm weight and bias 256, weights_proj 64 x 7168 =
  -- 458,752; vllm deepseek_v2.py Indexer) = 671,877,944,064. No exact published total was found to
  -- compare (the Hub's "685B" adds the MTP layer and the fp8 scales).
  ["deepseek-ai/DeepSeek-V3.2-Exp"]                  = 671877944064,
  ["deepseek-ai/DeepSeek-V3"]                        = 671026419200,
  ["moonshotai/Kimi-K2-Instruct-0905"]               = 1026408232448,
  ["moonshotai/Kimi-K2-Thinking"]                    = 1026408232448,
  -- MiniMax-M2: embed + lm_head 2 x 614,596,608 + norm 3,072 + 62 layers x (attention 44,040,192
  -- + q/k norm 7,168 + 256 experts x 14,155,776 + gate 786,432 + bias 256 + norms 6,144) =
  -- 228,689,764,864; with the fp8 block scales the checkpoint also stores (62 x 223,872
  -- weight_scale_inv elements: attention 2,688 + experts 256 x 864) 228,703,644,928, the
  -- safetensors total the Hub's API reports for the MiniMax-M2 architecture ("230B total").
  -- Active 10.0B: 8 of 256 experts (the published "10B activated").
  ["MiniMaxAI/MiniMax-M2"]                           = 228689764864,
  -- IBM Granite 4.0 (granitemoehybrid; tied embedding counted once). h-small: 4 attention layers
  -- x 41,943,040 + 36 Mamba-2 layers x 102,286,976 (in_proj {16768, 4096} + conv1d 8448 x 4 + bias
  -- + dt_bias, A_log, D 3 x 128 + gated norm 8192 + out_proj {4096, 8192}) + 40 x (72 experts x
  -- 9,437,184 + router 294,912 + shared MLP 18,874,368 + norms 8,192) + embed 411,041,792 + norm:
  -- llama.cpp's n_params of unsloth's granite-4.0-h-small GGUF (its llama-server /props) and the
  -- Hub's "32.2B". granite-4.0-micro: the Hub's safetensors.total for it. h-micro: the
  -- general.parameter_count Ollama reports for its granitehybrid GGUF. h-tiny: no exact published
  -- count was found; 6,939,037,248 is this inventory's (the Hub's "6.94B" rounds it), same code
  -- path as the three checked.
  ["ibm-granite/granite-4.0-h-small"]                = 32207337984,
  ["ibm-granite/granite-4.0-micro"]                  = 3402836480,
  ["ibm-granite/granite-4.0-h-micro"]                = 3191396096,
  ["ibm-granite/granite-4.0-h-tiny"]                 = 6939037248,
  -- Falcon-H1 (no exact published count found for either: these are the inventory's, checked by
  -- hand layer by layer against modeling_falcon_h1.py and consistent with the published "7.59B"
  -- and "90M"). 7B: embed + lm_head 2 x 399,507,456 + 44 x (attention 11,010,048 + Mamba-2
  -- 29,976,136: in_proj {6680, 3072} + conv1d 3584 x 4 + bias + dt_bias, A_log, D 3 x 24 + out_proj
  -- {3072, 3072}, no gated-norm weight (mamba_rms_norm false) + MLP 113,246,208 + norms 6,144)
  -- + final norm 3,072.
  ["tiiuae/Falcon-H1-7B-Instruct"]                   = 7585513568,
  ["tiiuae/Falcon-H1-Tiny-90M-Instruct"]             = 91131072,
  ["tiiuae/Falcon-H1-1.5B-Instruct"]                 = 1554789760,  -- inventory count, untied assumed
  -- LFM2-1.2B: embed 134,217,728 (tied) + 10 short-conv layers x 16,783,360 + 6 attention layers x
  -- 10,485,888 + 16 SwiGLU x 50,331,648 (width 12288 -> 8192) + norms: the count transformers'
  -- sum(p.numel()) gives for Lfm2ForCausalLM (LFM2.5-1.2B-Instruct, the same shapes) and the
  -- general.parameter_count of its GGUF.
  ["LiquidAI/LFM2-1.2B"]                             = 1170340608,
}
-- --- architecture families A: published exact counts (the Hub's safetensors parameter totals or
-- model cards, as noted); "inventory" = no exact published figure found, the count checked by hand
do
  local A = {
    ["google/gemma-7b"]                        = 8537680896,   -- Keras Hub gemma_presets.py gemma_7b_en params
    ["google/gemma-2b"]                        = 2506172416,   -- Keras Hub gemma_2b_en params
    ["microsoft/phi-2"]                        = 2779683840,   -- Hub safetensors parameters F16
    -- 32 x (attention with biases 41,953,280 + 16 experts x 78,643,200 + router 65,536 + 2 LayerNorms
    -- 16,384) + embed 131,334,144 + lm_head 131,334,144 + its bias 32,064 + norm 8,192: the
    -- 41,873,153,344 reported for Phi-3.5-MoE (feed-forward 40,267,415,552)
    ["microsoft/Phi-3.5-MoE-instruct"]         = 41873153344,
    ["allenai/OLMo-2-1124-7B"]                 = 7298617344,   -- Hub safetensors total
    ["allenai/OLMo-2-1124-13B"]                = 13716198400,  -- Hub safetensors total
    ["allenai/OLMoE-1B-7B-0924"]               = 6919161856,   -- Hub safetensors total
    ["ibm-granite/granite-3.3-8b-instruct"]    = 8170864640,   -- Hub safetensors total (tied embedding once)
    ["ibm-granite/granite-3.3-2b-instruct"]    = 2533539840,   -- Hub safetensors total
    ["ibm-granite/granite-3.1-8b-instruct"]    = 8170848256,   -- 3.3's less 4 vocabulary rows (49,155 tokens)
    ["ibm-granite/granite-3.1-2b-instruct"]    = 2533531648,
    ["ibm-granite/granite-3.1-3b-a800m-instruct"] = 3298793472, -- = granite-guardian-3.2-3b-a800m's Hub total
    ["ibm-granite/granite-3.1-1b-a400m-instruct"] = 1334628352, -- model.parameters() of the checkpoint
    ["CohereForAI/aya-expanse-8b"]             = 8028033024,   -- Hub safetensors total (Command R7B's shapes)
    ["CohereForAI/c4ai-command-r7b-12-2024"]   = 8028033024,
    -- inventory: 40 x (attention 268,435,456 + MLP 553,648,128 + LayerNorm 8,192) + embed
    -- 2,097,152,000 + norm 8,192 (the Hub's "35B")
    ["CohereForAI/c4ai-command-r-v01"]         = 34980831232,
    ["CohereForAI/c4ai-command-r-plus"]        = 103810674688, -- inventory (the Hub's "104B")
    ["CohereForAI/c4ai-command-a-03-2025"]     = 111057580032, -- inventory (the Hub's "111B")
    ["bigcode/starcoder2-3b"]                  = 3030371328,   -- inventory (tied; the Hub's "3.03B")
    ["bigcode/starcoder2-7b"]                  = 7173923840,   -- inventory (tied; the Hub's "7.17B")
    ["bigcode/starcoder2-15b"]                 = 15957889024,  -- inventory (untied; the Hub's "16B")
    ["HuggingFaceTB/SmolLM3-3B"]               = 3075098624,   -- safetensors index total_size / 2
  }
  for k, v in pairs(A) do EXPECTED_PARAMS[k] = v end
end

-- KV-cache bytes per token at 2 bytes/element: sum over groups of layers*kv_heads*(k+v)*2.
local EXPECTED_KV_BF16 = {
  ["meta-llama/Llama-3.1-8B"]      = 2 * 32 * 8 * 128 * 2,      -- 131,072
  ["meta-llama/Llama-2-7b-hf"]     = 2 * 32 * 32 * 128 * 2,     -- 524,288
  ["mistralai/Mistral-7B-v0.1"]    = 2 * 32 * 8 * 128 * 2,
  ["llava-hf/llava-1.5-7b-hf"]     = 2 * 32 * 32 * 128 * 2,     -- Vicuna-7B (LlamaConfig defaults)
  ["llava-hf/llava-v1.6-mistral-7b-hf"] = 2 * 32 * 8 * 128 * 2,
  ["OpenGVLab/InternVL3-8B-hf"]    = 2 * 28 * 4 * 128 * 2,      -- Qwen2.5-7B: 57,344
  ["OpenGVLab/InternVL3_5-8B-HF"]  = 2 * 36 * 8 * 128 * 2,      -- Qwen3-8B: 147,456
  ["OpenGVLab/InternVL3_5-1B-HF"]  = 2 * 28 * 8 * 128 * 2,      -- Qwen3-0.6B: 114,688
  ["llava-hf/llava-onevision-qwen2-7b-ov-hf"] = 2 * 28 * 4 * 128 * 2, -- Qwen2-7B: 57,344
  ["HuggingFaceTB/SmolVLM-256M-Instruct"] = 2 * 30 * 3 * 64 * 2,  -- 23,040
  ["zai-org/GLM-4.6V-Flash"]       = 2 * 40 * 2 * 128 * 2,      -- 40,960
  ["zai-org/GLM-4.5V"]             = 2 * 46 * 8 * 128 * 2,      -- 188,416: GLM-4.5-Air's
  ["google/gemma-2-9b-it"]         = 2 * 42 * 8 * 256 * 2,
  ["deepseek-ai/DeepSeek-V2-Lite"] = 27 * (512 + 64) * 2,       -- one MLA latent per layer
  -- V3.2: the MLA latent in bf16 + the indexer's 128 fp8 + 4 B scale, uint8 whatever the KV dtype
  ["deepseek-ai/DeepSeek-V3.2-Exp"] = 61 * ((512 + 64) * 2 + 132),
  ["openai/gpt-oss-20b"]           = 2 * 24 * 8 * 64 * 2,
  ["tiiuae/falcon-7b"]             = 2 * 32 * 1 * 64 * 2,       -- multi-query
  ["bigscience/T0_3B"]             = 2 * 24 * 32 * 64 * 2,      -- decoder self-attention
  ["google-bert/bert-large-uncased"] = 0,
  ["Qwen/Qwen3-Next-80B-A3B-Instruct"] = 2 * 12 * 2 * 256 * 2,  -- attention layers only (states apart)
  ["meta-llama/Llama-4-Scout-17B-16E-Instruct"] = 2 * 48 * 8 * 128 * 2,
  ["zai-org/GLM-4.5"]     = 2 * 92 * 8 * 128 * 2,  -- 376,832: GQA on the 92 main layers, not the MTP one
  ["zai-org/GLM-4.5-Air"] = 2 * 46 * 8 * 128 * 2,  -- 188,416
  ["Qwen/Qwen3.5-35B-A3B"] = 2 * 10 * 2 * 256 * 2,     -- 20,480: the 10 full-attention layers
  ["Qwen/Qwen3.6-27B"]     = 2 * 16 * 4 * 256 * 2,     -- 65,536
  ["Qwen/Qwen3-VL-2B-Instruct"] = 2 * 28 * 8 * 128 * 2,         -- 114,688
  ["Qwen/Qwen3-VL-30B-A3B-Instruct"] = 2 * 48 * 4 * 128 * 2,    -- 98,304
  ["moonshotai/Kimi-K2-Instruct"] = 61 * (512 + 64) * 2,  -- 70,272: one MLA latent + rope key per layer
  ["MiniMaxAI/MiniMax-M2"] = 2 * 62 * 8 * 128 * 2,        -- 253,952: GQA on all 62 layers
  ["ibm-granite/granite-4.0-h-small"] = 2 * 4 * 8 * 128 * 2,  -- 16,384: the 4 attention layers (states apart)
  ["ibm-granite/granite-4.0-micro"]   = 2 * 40 * 8 * 64 * 2,  -- 81,920: dense, every layer attention
  ["tiiuae/Falcon-H1-7B-Instruct"]    = 2 * 44 * 2 * 128 * 2, -- 45,056: attention in every layer (states apart)
  ["LiquidAI/LFM2-1.2B"]              = 2 * 6 * 8 * 64 * 2,   -- 12,288: the 6 attention layers
}
-- --- architecture families A
do
  local A = {
    ["google/gemma-7b"]                 = 2 * 28 * 16 * 256 * 2,  -- 458,752: MHA, head_dim 256
    ["google/gemma-2b"]                 = 2 * 18 * 1 * 256 * 2,   -- 18,432: multi-query
    ["microsoft/phi-2"]                 = 2 * 32 * 32 * 80 * 2,   -- 327,680
    ["microsoft/Phi-3.5-MoE-instruct"]  = 2 * 32 * 8 * 128 * 2,   -- 131,072
    ["allenai/OLMo-2-1124-7B"]          = 2 * 32 * 32 * 128 * 2,  -- 524,288
    ["allenai/OLMoE-1B-7B-0924"]        = 2 * 16 * 16 * 128 * 2,  -- 131,072
    ["ibm-granite/granite-3.3-8b-instruct"] = 2 * 40 * 8 * 128 * 2, -- 163,840
    ["ibm-granite/granite-3.1-3b-a800m-instruct"] = 2 * 32 * 8 * 64 * 2, -- 65,536
    ["CohereForAI/c4ai-command-r-v01"]  = 2 * 40 * 64 * 128 * 2,  -- 1,310,720: MHA
    ["CohereForAI/c4ai-command-r7b-12-2024"] = 2 * 32 * 8 * 128 * 2, -- 131,072 (24 of the 32 layers windowed)
    ["bigcode/starcoder2-3b"]           = 2 * 30 * 2 * 128 * 2,   -- 30,720
    ["HuggingFaceTB/SmolLM3-3B"]        = 2 * 36 * 4 * 128 * 2,   -- 73,728
  }
  for k, v in pairs(A) do EXPECTED_KV_BF16[k] = v end
end

-- Expected (window -> layers) splits of the KV groups; "full" = no window.
local EXPECTED_WINDOWS = {
  ["mistralai/Mistral-7B-v0.1"] = { [4096] = 32 },
  ["mistralai/Mistral-7B-v0.3"] = { full = 32 },
  ["Qwen/Qwen2.5-7B"]           = { full = 28 },
  ["google/gemma-2-9b-it"]      = { [4096] = 21, full = 21 },
  ["google/gemma-3-27b-it"]     = { [1024] = 52, full = 10 },
  ["openai/gpt-oss-20b"]        = { [128] = 12, full = 12 },
  ["openai/gpt-oss-120b"]       = { [128] = 18, full = 18 },
  ["meta-llama/Llama-4-Scout-17B-16E-Instruct"] = { [8192] = 36, full = 12 },
  ["meta-llama/Llama-4-Maverick-17B-128E-Instruct"] = { [8192] = 36, full = 12 },
  ["Qwen/Qwen3-Next-80B-A3B-Instruct"] = { full = 48 },  -- 12 attention + 36 state layers
  ["Qwen/Qwen3.5-397B-A17B"] = { full = 60 },  -- 15 attention + 45 state layers
  ["ibm-granite/granite-4.0-h-tiny"] = { full = 40 },  -- 4 attention + 36 Mamba-2 state layers
}
-- --- architecture families A: Gemma 1 global everywhere; cohere2 three windowed layers in four;
-- StarCoder2's sliding_window 4096 on every layer
EXPECTED_WINDOWS["google/gemma-7b"] = { full = 28 }
EXPECTED_WINDOWS["CohereForAI/c4ai-command-r7b-12-2024"] = { [4096] = 24, full = 8 }
EXPECTED_WINDOWS["CohereForAI/c4ai-command-a-03-2025"] = { [4096] = 48, full = 16 }
EXPECTED_WINDOWS["CohereForAI/c4ai-command-r-v01"] = { full = 40 }
EXPECTED_WINDOWS["bigcode/starcoder2-3b"] = { [4096] = 30 }

-- ---- arch-families-b: InternLM 2.5 / 3, GLM-4-0414, ERNIE 4.5, Hunyuan dense, Seed-OSS, EXAONE 4.0
-- internlm2_5-7b-chat: 7,737,708,544, the count chatllm.cpp prints for it ("with 7737708544 (7.7B)
-- parameters", its tool-calling docs). Seed-OSS-36B-Instruct / -Base: 36,151,104,512, the safetensors
-- index total_size / 2 B a public config snapshot of the three Seed-OSS repos lists. GLM-4-9B-0414:
-- 9,400,279,040, llama.cpp's n_params of a BF16 glm4 GGUF with these text shapes (GLM-4.6V-Flash's
-- language model: n_vocab 151552, n_embd 4096, as a llama-server preset lists it). ERNIE-4.5-0.3B:
-- 360,748,032, the params a published evaluation log prints for it (family ernie, L=18, d=1024).
-- EXAONE-4.0-32B: no exact total found; the model card's "30.95B parameters (without embeddings)"
-- is checked below on the non-embedding part. internlm3-8b-instruct (card "8.8B") and Hunyuan-7B
-- (card "7.5B"): no exact published figure found, the inventory's counts (hand-checked:
-- internlm3 48 x 161,488,896 + 2 x 526,385,152 + 4,096; Hunyuan 32 x 218,112,256 (q/k norms 256)
-- + 524,972,032 + 4,096, tied).
EXPECTED_PARAMS["internlm/internlm2_5-7b-chat"]          = 7737708544
EXPECTED_PARAMS["ByteDance-Seed/Seed-OSS-36B-Instruct"]  = 36151104512
EXPECTED_PARAMS["THUDM/GLM-4-9B-0414"]                   = 9400279040
EXPECTED_PARAMS["baidu/ERNIE-4.5-0.3B-PT"]               = 360748032
EXPECTED_PARAMS["internlm/internlm3-8b-instruct"]        = 8804241408
EXPECTED_PARAMS["tencent/Hunyuan-7B-Instruct"]           = 7504568320
EXPECTED_KV_BF16["internlm/internlm2_5-7b-chat"]         = 2 * 32 * 8 * 128 * 2   -- 131,072
EXPECTED_KV_BF16["internlm/internlm3-8b-instruct"]       = 2 * 48 * 2 * 128 * 2   -- 49,152
EXPECTED_KV_BF16["THUDM/GLM-4-9B-0414"]                  = 2 * 40 * 2 * 128 * 2   -- 40,960
EXPECTED_KV_BF16["baidu/ERNIE-4.5-0.3B-PT"]              = 2 * 18 * 2 * 128 * 2   -- 18,432
EXPECTED_KV_BF16["tencent/Hunyuan-7B-Instruct"]          = 2 * 32 * 8 * 128 * 2   -- 131,072
EXPECTED_KV_BF16["ByteDance-Seed/Seed-OSS-36B-Instruct"] = 2 * 64 * 8 * 128 * 2   -- 262,144
EXPECTED_KV_BF16["LGAI-EXAONE/EXAONE-4.0-32B"]           = 2 * 64 * 8 * 128 * 2   -- 262,144 (16 global, 48 windowed)
EXPECTED_WINDOWS["LGAI-EXAONE/EXAONE-4.0-32B"]           = { [4096] = 48, full = 16 }  -- "LLLG": every 4th layer global
-- dots.llm1.inst, ERNIE-4.5-21B-A3B and Bamba-9B: no exact published count found (cards: "142B total",
-- "21B" / the Hub's 21.8B, "9.78B"); the inventory's counts, consistent with them. dots1: 61 MoE
-- layers x (128 x 17,301,504 experts + 34,603,008 shared + 524,288 router + fp32 bias 128) + dense
-- layer 0 (134,479,872) + attention 62 x 134,225,920 (q/k norms 256) + norms + 2 x 622,854,144.
-- Bamba: 29 Mamba-2 layers x 50,364,928 + 3 attention layers x 41,943,040 + 32 x 176,160,768 SwiGLU
-- + norms + 2 x 525,336,576.
EXPECTED_PARAMS["rednote-hilab/dots.llm1.inst"]          = 142774381696
EXPECTED_PARAMS["baidu/ERNIE-4.5-21B-A3B-PT"]            = 21825437888
EXPECTED_PARAMS["ibm-ai-platform/Bamba-9B"]              = 9780235392
EXPECTED_KV_BF16["rednote-hilab/dots.llm1.inst"]         = 2 * 62 * 32 * 128 * 2  -- 1,015,808: MHA on every layer
EXPECTED_KV_BF16["baidu/ERNIE-4.5-21B-A3B-PT"]           = 2 * 28 * 4 * 128 * 2   -- 57,344
EXPECTED_KV_BF16["ibm-ai-platform/Bamba-9B"]             = 2 * 3 * 8 * 128 * 2    -- 12,288: the 3 attention layers (states apart)
EXPECTED_WINDOWS["ibm-ai-platform/Bamba-9B"]             = { full = 32 }  -- 3 attention + 29 Mamba-2 state layers
-- NVIDIA-Nemotron-Nano-9B-v2: 8,888,227,328, the total a public model-size fixture table lists for it
-- (beside granite-4.0-h-small's 32,207,337,984 and GLM-4.5-Air's 110,468,824,832, both asserted above).
-- AI21-Jamba-1.5-Mini: no exact published count found (the Hub's "51.6B", the card's 52B); the
-- inventory's: 28 Mamba-1 layers x 134,238,720 (in_proj 67,108,864, conv 40,960 + 8,192, x_proj
-- 2,359,296, dt_proj 2,105,344, A_log 131,072, D 8,192, out_proj 33,554,432, norms 288) + 4 attention
-- layers x 41,943,040 + 16 MoE layers x (16 x 176,160,768 + router 65,536) + 16 dense x 176,160,768 +
-- norms + 2 x 268,435,456.
EXPECTED_PARAMS["nvidia/NVIDIA-Nemotron-Nano-9B-v2"]     = 8888227328
EXPECTED_PARAMS["ai21labs/AI21-Jamba-1.5-Mini"]          = 51570323328
EXPECTED_KV_BF16["nvidia/NVIDIA-Nemotron-Nano-9B-v2"]    = 2 * 4 * 8 * 128 * 2    -- 16,384: 4 attention layers
EXPECTED_KV_BF16["ai21labs/AI21-Jamba-1.5-Mini"]         = 2 * 4 * 8 * 128 * 2    -- 16,384: layers 4, 12, 20, 28
EXPECTED_WINDOWS["nvidia/NVIDIA-Nemotron-Nano-9B-v2"]    = { full = 31 }  -- 4 attention + 27 Mamba-2 (25 MLP-only layers cache nothing)
-- Hunyuan-A13B-Instruct: 80,393,183,232, the inventory's count; a published transformers trace of the
-- model (meta device, 2025-06-25 release, 32,768 context) prints "80.39B total, 12.75B active".
EXPECTED_PARAMS["tencent/Hunyuan-A13B-Instruct"]         = 80393183232
EXPECTED_KV_BF16["tencent/Hunyuan-A13B-Instruct"]        = 2 * 32 * 8 * 128 * 2   -- 131,072
-- ---- end arch-families-b
-- ---- arch-families-c
-- NVIDIA-Nemotron-3-Nano-30B-A3B: 31,577,940,288, llama.cpp's n_params for its GGUF (llama-bench
-- "nemotron_h_moe 31B.A3.5B", model_n_params 31577940288; the same for Nemotron-Cascade-2-30B-A3B's);
-- the Hub's safetensors total, 31,577,937,344, leaves out the 23 x 128 fp32 e_score_correction_bias.
-- 23 Mamba-2 layers x 38,742,208 + 6 attention x 23,396,352 + 23 MoE x (128 x 2 x 1856 x 2688 +
-- 2 x 3712 x 2688 + 128 x 2688 + 128) + 52 norms + norm_f + 2 x 131072 x 2688.
EXPECTED_PARAMS["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"]  = 31577940288
EXPECTED_KV_BF16["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"] = 2 * 6 * 2 * 128 * 2  -- 6,144: 6 attention layers
EXPECTED_WINDOWS["nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"] = { full = 29 }  -- 6 attention + 23 Mamba-2 (MoE layers cache nothing)
-- Kimi-Linear-48B-A3B-Instruct: 49,122,681,728, the checkpoint's safetensors index
-- metadata.total_parameters (and the Hub API's safetensors.total; llama.cpp's n_params for a GGUF of
-- it is the same). 20 KDA layers x 39,514,272 + 7 MLA x 29,114,880 + 26 MoE x (256 x 3 x 1024 x 2304
-- + 3 x 1024 x 2304 + 256 x 2304 + 256) + dense layer 0 (3 x 9216 x 2304) + 55 norms + 2 x 163840 x 2304.
EXPECTED_PARAMS["moonshotai/Kimi-Linear-48B-A3B-Instruct"]  = 49122681728
EXPECTED_KV_BF16["moonshotai/Kimi-Linear-48B-A3B-Instruct"] = 7 * (512 + 64) * 2  -- 8,064: the 7 MLA layers' latent
EXPECTED_WINDOWS["moonshotai/Kimi-Linear-48B-A3B-Instruct"] = { full = 27 }      -- 7 MLA + 20 KDA state layers
-- MiniMax-M1-80k: 456,089,655,296, the total a public model-metadata table lists for both
-- MiniMax-M1-80k and -40k (the Hub's "456B"): 70 lightning layers x 251,666,432 (qkv 3 x 8192 x 6144,
-- output_gate and out_proj 8192 x 6144, norm 8192) + 10 softmax layers x 113,246,208 + 80 MoE layers
-- x (32 x 3 x 9216 x 6144 + 32 x 6144) + 161 norms + 2 x 200064 x 6144.
EXPECTED_PARAMS["MiniMaxAI/MiniMax-M1-80k"]  = 456089655296
EXPECTED_KV_BF16["MiniMaxAI/MiniMax-M1-80k"] = 2 * 10 * 8 * 128 * 2  -- 40,960: the 10 softmax layers
EXPECTED_WINDOWS["MiniMaxAI/MiniMax-M1-80k"] = { full = 80 }       -- 10 softmax + 70 lightning state layers
-- ---- end arch-families-c
-- ---- arch-moe
-- DBRX (dbrx-instruct / dbrx-base): no exact published count found (the model card: "132B total
-- parameters of which 36B parameters are active"); the inventory's 131,596,523,520, checked by hand
-- from the config: 40 layers x 3,259,084,800 (Wqkv (6144 + 2 x 8 x 128) x 6144 = 50,331,648,
-- out_proj 37,748,736, two bias-free LayerNorms 12,288, router 16 x 6144 = 98,304, experts
-- 3 x 16 x 10752 x 6144 = 3,170,893,824) + wte and lm_head 2 x 100352 x 6144 + norm_f 6144. Active
-- (4 of 16 experts) 36,469,708,800: the card's "36B".
EXPECTED_PARAMS["databricks/dbrx-instruct"]  = 131596523520
EXPECTED_KV_BF16["databricks/dbrx-instruct"] = 2 * 40 * 8 * 128 * 2  -- 163,840: GQA 8 KV heads on 40 layers
-- Ling 2.0: the Hugging Face safetensors totals, 16,255,643,392 for Ling-mini-2.0 (the Hub's count, quoted
-- as "hf_safetensors_total" by a public recount of the released config) and 102,889,705,216 for
-- Ling-flash-2.0 (a public model-metadata table's total_params); the MTP layer not in either count.
-- Ling-mini: 20 layers x attention 10,490,112 (query_key_value 3072 x 2048, dense 2048 x 2048, q/k norms
-- 256, layer norms 4096) + dense layer 0 3 x 5120 x 2048 + 19 MoE layers x (257 x 3 x 512 x 2048 + router
-- 256 x 2048 + expert_bias 256) + 2 x 157184 x 2048 + norm 2048. Active: 1,432,973,056 (8 routed + the
-- shared expert), 789,147,392 without embedding and head: the card's "1.4B activated (non-embedding 789M)".
EXPECTED_PARAMS["inclusionAI/Ling-mini-2.0"]   = 16255643392
EXPECTED_PARAMS["inclusionAI/Ling-flash-2.0"]  = 102889705216
EXPECTED_KV_BF16["inclusionAI/Ling-mini-2.0"]  = 2 * 20 * 4 * 128 * 2   -- 40,960
EXPECTED_KV_BF16["inclusionAI/Ling-flash-2.0"] = 2 * 32 * 4 * 128 * 2   -- 65,536
-- ---- end arch-moe

-- ---- arch-mamba: attention-free Mamba-1 / Mamba-2 (architectures/mamba.lua)
-- mamba-2.8b: 2,768,345,600, "Number of parameters: 2768345600" printed on loading
-- state-spaces/mamba-2.8b in AMD's ROCm blog "Mamba on AMD GPUs with ROCm" (rocm.blogs.amd.com):
-- 64 layers x 41,244,160 (in_proj 26,214,400, conv 20,480 + 5,120, x_proj 983,040, dt_proj 819,200 +
-- 5,120, A_log 81,920, D 5,120, out_proj 13,107,200, norm 2,560) + norm_f + tied 50280 x 2560.
-- Mamba-Codestral-7B-v0.1: 7,285,403,648, "an instructed model, with 7,285,403,648 parameters"
-- (mistral.ai/news/codestral-mamba): 64 x 109,640,064 (in_proj 18560 x 4096, conv 10240 x 4 + 10240,
-- dt_bias / A_log / D 3 x 128, gated norm 8192, out_proj 4096 x 8192, norm 4096) + norm_f + 2 x
-- 32768 x 4096. falcon-mamba-7b: no exact published count found (the card's "7.27B"); the
-- inventory's 7,272,665,088 = 64 x 105,312,256 (Jamba's Mamba-1 layer without its dt / B / C norm
-- weights and with a 4096 norm) + norm_f + 2 x 65024 x 4096.
EXPECTED_PARAMS["state-spaces/mamba-2.8b-hf"]        = 2768345600
EXPECTED_PARAMS["mistralai/Mamba-Codestral-7B-v0.1"] = 7285403648
EXPECTED_PARAMS["tiiuae/falcon-mamba-7b"]            = 7272665088
EXPECTED_KV_BF16["state-spaces/mamba-2.8b-hf"]        = 0   -- no attention: nothing grows with the tokens
EXPECTED_KV_BF16["mistralai/Mamba-Codestral-7B-v0.1"] = 0
EXPECTED_KV_BF16["tiiuae/falcon-mamba-7b"]            = 0
-- ---- end arch-mamba

-- ---- arch-new3: Zamba2 (architectures/zamba2.lua)
-- Zamba2-1.2B (-Instruct-v2, the same shapes): 1,215,064,704, the parameter count a public evaluation
-- records for Zyphra/Zamba2-1.2B-Instruct-v2 ("model_freeze": "parameters": 1215064704). By hand: 38
-- Mamba-2 layers x 25,849,280 (in_proj 8512 x 2048, conv 4352 x 4 + 4352, dt_bias / A_log / D 3 x 64,
-- gated norm 4096, out_proj 2048 x 4096, input_layernorm 2048) + 6 hybrid Linear 2048 x 2048 + one
-- shared block 109,058,048 (norm 4096, q/k/v 3 x 4096 x 4096, o 2048 x 4096, pre_ff norm 2048,
-- gate_up 16384 x 2048, down 2048 x 8192) + 6 applications x 5,505,024 adapters (MLP 2048 x 128 + 128 x
-- 16384, q/k/v 3 x (4096 x 128 + 128 x 4096)) + final norm + the tied 32000 x 2048 embedding.
-- Zamba2-2.7B and Zamba2-7B: no exact published figure found (the paper's "2.7B" / "7.4B", the Hub's
-- rounding); counted by vramfit only, checked by hand: 2.7B = 54 x 39,888,240 + 9 x 6,553,600 + 2 shared
-- blocks x 170,401,280 + 9 x 2,949,120 MLP adapters + 2560 + 32000 x 2560 (tied); 7B = 81 x 78,437,456
-- (2 groups: in_proj 14704 x 3584, conv 7424 wide) + 13 x 12,845,056 + 2 x 333,982,208 + 13 x 4,128,768
-- + 3584 + 32000 x 3584 (tied).
EXPECTED_PARAMS["Zyphra/Zamba2-1.2B"] = 1215064704
EXPECTED_PARAMS["Zyphra/Zamba2-2.7B"] = 2662214560
EXPECTED_PARAMS["Zyphra/Zamba2-7B"]   = 7356749648
-- K/V: one cache per application of a shared block (6 / 9 / 13 hybrid layers, MHA of 2h / heads);
-- the Mamba-2 state of all layers is per sequence, not per token
EXPECTED_KV_BF16["Zyphra/Zamba2-1.2B"] = 2 * 6 * 32 * 128 * 2    -- 98,304 ("96.0 KiB over 6 attn layers", the public trace)
EXPECTED_KV_BF16["Zyphra/Zamba2-2.7B"] = 2 * 9 * 32 * 160 * 2    -- 184,320
EXPECTED_KV_BF16["Zyphra/Zamba2-7B"]   = 2 * 13 * 32 * 224 * 2   -- 372,736
EXPECTED_WINDOWS["Zyphra/Zamba2-1.2B"] = { full = 6 + 38 }       -- 6 attention + 38 Mamba-2 state layers
EXPECTED_WINDOWS["Zyphra/Zamba2-7B"]   = { full = 13 + 81 }
-- Kimi-VL-A3B-Instruct (-Thinking, -Thinking-2506: the same shapes): no exact published figure found
-- (the card's "16B total", the Hub's 16.4B); counted by vramfit only, checked by hand: the Moonlight-16B-A3B
-- text model 15,960,110,208 (deepseek.lua's DeepSeek-V3 count with these shapes) + MoonViT 416,866,032
-- (patch conv 1152 x 3 x 14 x 14 + 1152, position table 64 x 64 x 1152, 27 blocks x 15,239,504: two
-- biased LayerNorms 4608, wqkv 3 x 1152^2 + 3456, wo 1152^2 + 1152, fc0 / fc1 2 x 1152 x 4304 + 5456;
-- final LayerNorm 2304) + projector 30,679,808 (LayerNorm 2304, linear_1 4608^2 + 4608, linear_2
-- 2048 x 4608 + 2048).
EXPECTED_PARAMS["moonshotai/Kimi-VL-A3B-Instruct"]   = 16407656048
EXPECTED_KV_BF16["moonshotai/Kimi-VL-A3B-Instruct"]  = 27 * (512 + 64) * 2  -- 31,104: one MLA latent + rope key a layer
-- Phi-3.5-vision-instruct: 4,146,621,440, the n_parameters a public embedding benchmark lists for
-- TIGER-Lab/VLM2Vec-Full (Phi-3.5-vision's shapes) and a public model-size table for
-- microsoft/phi-3.5-vision-instruct: Phi-3-mini 3,821,079,552 + CLIP ViT-L/14-336 303,507,456 (all 24
-- layers and post_layernorm) + glb_GN / sub_GN 2 x 4096 + img_projection 22,026,240 (4096 -> 3072 -> 3072,
-- biased). Phi-3-vision-128k-instruct has the same shapes.
EXPECTED_PARAMS["microsoft/Phi-3.5-vision-instruct"]  = 4146621440
EXPECTED_KV_BF16["microsoft/Phi-3.5-vision-instruct"] = 2 * 32 * 32 * 96 * 2   -- 393,216: Phi-3-mini's MHA
-- ---- end arch-new3

-- ---- gemma4: Google Gemma 4 (architectures/gemma4.lua). Counts exclude the persistent buffers
-- (layer_scalar, vision std_bias / std_scale, clip bounds), which the checks below add back to
-- reach the safetensors bytes. gemma-4-31B: 31,273,086,512 = the tensor payload of
-- google/gemma-4-31B @5bbc2fb1 (62,546,177,752 B in two shards of 49,784,788,364 + 12,761,549,884 B
-- less 160,496 B of headers, as a public census of the checkpoint lists) / 2 less 2,364 buffer
-- elements. gemma-4-26B-A4B: its model.safetensors.index.json total_size 51,611,872,412 / 2 less
-- 2,334 buffer elements. gemma-4-E2B: 5,104,297,504, transformers' own parameter count of
-- Gemma4ForConditionalGeneration for google/gemma-4-E2B @3e22461f as a public project asserts it.
-- gemma-4-E4B: no exact figure is asserted. No published exact count, safetensors total_size or
-- tensor census of google/gemma-4-E4B was found (its card and model tables say only "8B with
-- Per-Layer Embeddings", 4.5B effective; e.g. https://apxml.com/models/gemma-4-e4b), and the
-- inventory's own 7,941,100,832 would be a test that cannot fail. Checked instead (below, after the
-- exact counts): the count rounds to the published 8B, 7.5e9 <= n < 8.5e9, a coarse but independent
-- bound; replace it with the exact figure when one is published.
ARCH_FILES[#ARCH_FILES + 1] = "gemma4"
EXPECTED_PARAMS["google/gemma-4-31B-it"]     = 31273086512
EXPECTED_PARAMS["google/gemma-4-26B-A4B-it"] = 25805933872
EXPECTED_PARAMS["google/gemma-4-E2B-it"]     = 5104297504
-- KV per token: owning layers only; full layers cache K and V of global_head_dim 512 (31B / 26B:
-- num_global_key_value_heads with attention_k_eq_v, V being the un-normed K projection)
EXPECTED_KV_BF16["google/gemma-4-31B-it"]     = 10 * 4 * 1024 * 2 + 50 * 16 * 512 * 2  -- 901,120
EXPECTED_KV_BF16["google/gemma-4-26B-A4B-it"] = 5 * 2 * 1024 * 2 + 25 * 8 * 512 * 2    -- 225,280
EXPECTED_KV_BF16["google/gemma-4-E4B-it"]     = 4 * 2 * 1024 * 2 + 20 * 2 * 512 * 2    -- 57,344: 24 of 42 layers cache
EXPECTED_KV_BF16["google/gemma-4-E2B-it"]     = 3 * 1 * 1024 * 2 + 12 * 1 * 512 * 2    -- 18,432: 15 of 35 layers cache
EXPECTED_WINDOWS["google/gemma-4-31B-it"]     = { [1024] = 50, full = 10 }
EXPECTED_WINDOWS["google/gemma-4-26B-A4B-it"] = { [1024] = 25, full = 5 }
EXPECTED_WINDOWS["google/gemma-4-E4B-it"]     = { [512] = 20, full = 4 }
EXPECTED_WINDOWS["google/gemma-4-E2B-it"]     = { [512] = 12, full = 3 }
-- ---- end gemma4
-- ---- arch-dense: OLMo 3, Apertus, Arcee AFM, Nemotron-4 / Minitron, StableLM, GPTBigCode, EXAONE 3.5
-- OLMo 3: Olmo-3-1025-7B 7,298,011,136 (the parameter count the Hub lists for its fine-tunes, e.g.
-- farhatkevin/olmo3-7b-mt-chicken_all_100b "7.298.011.136 parametros", and an MFU callback's logged
-- num_params=7298011136 for an Olmo 3 7B SFT run); Olmo-3-1125-32B 32,233,522,176 (a study's model-size
-- table: olmo3_32b_bits = 32233522176 * 16 beside the 7B's 7298011136). Hand-check, 7B: 32 x (attention
-- 67,108,864 + q/k norms 8,192 + MLP 135,266,304 + post-norms 8,192) + 2 x 410,738,688 + 4,096.
EXPECTED_PARAMS["allenai/Olmo-3-1025-7B"]   = 7298011136
EXPECTED_PARAMS["allenai/Olmo-3-1125-32B"]  = 32233522176
EXPECTED_KV_BF16["allenai/Olmo-3-1025-7B"]  = 2 * 32 * 32 * 128 * 2  -- 524,288 (24 of the 32 layers windowed)
EXPECTED_KV_BF16["allenai/Olmo-3-1125-32B"] = 2 * 64 * 8 * 128 * 2   -- 262,144
EXPECTED_WINDOWS["allenai/Olmo-3-1025-7B"]  = { [4096] = 24, full = 8 }
EXPECTED_WINDOWS["allenai/Olmo-3-1125-32B"] = { [4096] = 48, full = 16 }
-- Apertus-8B-2509: 8,053,338,176 parameters, the count a published A40 analysis of Apertus-8B-Instruct-2509
-- prints ("Parameters: 8,053,338,176 (8.05 Billion)"), model.parameters(): the xIELU alpha_p / alpha_n
-- {1} of each layer in, its beta / eps buffers out; with those 64 buffers the checkpoint holds
-- 8,053,338,240 BF16 values, as a vLLM integration note on the 2509 checkpoint gives it (checked below).
-- Apertus 70B: a llama.cpp server of an Apertus 70B GGUF reports 70,599,864,384 parameters: this
-- inventory's 70,599,864,480, less the 2 x 80 xIELU scalars the GGUF keeps as metadata, plus llama.cpp's
-- rope_freqs {64} of llama3 RoPE scaling (checked below).
EXPECTED_PARAMS["swiss-ai/Apertus-8B-2509"]   = 8053338176
EXPECTED_PARAMS["swiss-ai/Apertus-70B-2509"]  = 70599864480
EXPECTED_KV_BF16["swiss-ai/Apertus-8B-2509"]  = 2 * 32 * 8 * 128 * 2  -- 131,072
EXPECTED_KV_BF16["swiss-ai/Apertus-70B-2509"] = 2 * 80 * 8 * 128 * 2  -- 327,680
-- AFM-4.5B: no exact published count found (the Hub's "4.6B"); the inventory's, by hand: 36 x (attention
-- 15,728,640 + up/down 94,371,840 + norms 5,120) + 2 x 327,690,240 (untied) + 2,560.
EXPECTED_PARAMS["arcee-ai/AFM-4.5B"]  = 4619184640
EXPECTED_KV_BF16["arcee-ai/AFM-4.5B"] = 2 * 36 * 4 * 128 * 2  -- 73,728
-- Minitron-4B-Base: no exact published count found (the Hub's "4.19B"); the inventory's, by hand: 32 x
-- (attention 25,165,824 + up/down 56,623,104 + two LayerNorm1P with bias 12,288) + 2 x 786,432,000 + 6,144.
EXPECTED_PARAMS["nvidia/Minitron-4B-Base"]  = 4190509056
EXPECTED_KV_BF16["nvidia/Minitron-4B-Base"] = 2 * 32 * 8 * 128 * 2  -- 131,072
-- StableLM: stablelm-3b-4e1t 2,795,443,200 (its model card's parameter table); stablelm-2-1_6b
-- 1,644,515,328 (the safetensors metadata total of stablelm-2-1_6b-chat, as public model-index pages and
-- a published candidate table list it).
EXPECTED_PARAMS["stabilityai/stablelm-3b-4e1t"]  = 2795443200
EXPECTED_PARAMS["stabilityai/stablelm-2-1_6b"]   = 1644515328
EXPECTED_KV_BF16["stabilityai/stablelm-3b-4e1t"] = 2 * 32 * 32 * 80 * 2  -- 327,680: MHA, head_dim 80
EXPECTED_KV_BF16["stabilityai/stablelm-2-1_6b"]  = 2 * 24 * 32 * 64 * 2  -- 196,608
-- StarCoderBase 15.5B / 1B (gpt_bigcode): 15,517,456,384 and 1,137,207,296, the counts a published model-size
-- table gives MultiPL-T's StarCoder-15B / -1B fine-tunes (same shapes).
EXPECTED_PARAMS["bigcode/starcoderbase"]     = 15517456384
EXPECTED_PARAMS["bigcode/starcoderbase-1b"]  = 1137207296
EXPECTED_KV_BF16["bigcode/starcoderbase"]    = 2 * 40 * 1 * 128 * 2  -- 20,480: multi-query
EXPECTED_KV_BF16["bigcode/starcoderbase-1b"] = 2 * 24 * 1 * 128 * 2  -- 12,288
-- EXAONE-3.5-7.8B-Instruct: 7,818,448,896, the exact model parameters an MLX port of the checkpoint
-- (mlx-community/EXAONE-3.5-7.8B-Instruct-4bit) reports.
EXPECTED_PARAMS["LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct"]  = 7818448896
EXPECTED_KV_BF16["LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct"] = 2 * 32 * 8 * 128 * 2  -- 131,072
-- MiniCPM3-4B: no exact published count found (the Hub's and the card's "4B"); the inventory's, by hand:
-- 62 x (q_a 1,966,080 + q_a norm 768 + q_b 2,949,120 + kv_a 737,280 + kv_a norm 256 + kv_b 1,310,720
-- + o 6,553,600 + MLP 49,152,000 + norms 5,120 = 62,674,944) + 188,026,880 (tied) + 2,560.
EXPECTED_PARAMS["openbmb/MiniCPM3-4B"]  = 4073875968
EXPECTED_KV_BF16["openbmb/MiniCPM3-4B"] = 62 * (256 + 32) * 2  -- 35,712: the latent, as SGLang caches it
-- Trinity-Nano-Preview: 6,120,003,328, the total a public model-manifest test pins for the repo
-- ("total_params == 6120003328", "6.120B"): 56 x attention (q, k, v, o, gate_proj, q/k norms) + 2 dense
-- SwiGLU layers of 3072 + 54 MoE layers (router {128, 1024}, one 256-wide shared expert, 128 experts of
-- 256, fp32 expert_bias {128}) + four norms a layer + 2 x 200192 x 1024 (untied) + 1024.
-- Trinity-Mini: no exact published count found (the card's "26B"); the inventory's, the same formula.
EXPECTED_PARAMS["arcee-ai/Trinity-Nano-Preview"]  = 6120003328
EXPECTED_PARAMS["arcee-ai/Trinity-Mini"]          = 26123974400
EXPECTED_KV_BF16["arcee-ai/Trinity-Nano-Preview"] = 2 * 56 * 2 * 128 * 2  -- 57,344 (42 of the 56 layers windowed)
EXPECTED_KV_BF16["arcee-ai/Trinity-Mini"]         = 2 * 32 * 4 * 128 * 2  -- 65,536 (24 of the 32 windowed)
EXPECTED_WINDOWS["arcee-ai/Trinity-Nano-Preview"] = { [2048] = 42, full = 14 }
EXPECTED_WINDOWS["arcee-ai/Trinity-Mini"]         = { [2048] = 24, full = 8 }
-- LongCat-Flash-Chat: no exact published count found (the card's "560 billion total parameters"); the
-- inventory's: 28 x (2 MLA blocks 2 x 90,572,800 + 2 dense MLPs 2 x 226,492,416 + 4 norms 24,576 + router
-- 768 x 6144 fp32 + 768 bias) + 28 x 512 experts x 37,748,736 + 2 x 131072 x 6144 (untied) + 6144, with
-- the 256 zero experts holding no weights. Its non-expert part less the input embedding, 18,693,794,816,
-- and that plus 12 experts a layer, 31,377,370,112, truncate to the card's activated "18.6B ~ 31.3B".
EXPECTED_PARAMS["meituan-longcat/LongCat-Flash-Chat"]  = 560664980480
EXPECTED_KV_BF16["meituan-longcat/LongCat-Flash-Chat"] = 56 * (512 + 64) * 2  -- 64,512: a latent per MLA block

local passed, failed = 0, 0
local function check(ok, msg)
  if ok then passed = passed + 1 else failed = failed + 1; print("FAIL: " .. msg) end
  return ok
end

---------------------------------------------------------------------------
-- Sandbox: architecture scripts and nn.lua see only what the engine gives them.
local function sandbox_env()
  local env = { string = string, table = table, math = math, utf8 = utf8, arch = arch }
  for _, k in ipairs { "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
                       "tostring", "type", "xpcall", "rawequal", "rawget", "rawlen", "rawset",
                       "setmetatable", "getmetatable" } do env[k] = _G[k] end
  local loaded = {}
  env.require = function(name)
    if loaded[name] == nil then
      local path
      -- "architectures.llama": another architecture script, as the engine resolves it
      local file = name:gsub("%.", "/") .. ".lua"
      for _, dir in ipairs { "scripts/", "architectures/", "" } do
        local f = io.open(dir .. file, "r")
        if f then path = dir .. file; f:close(); break end
      end
      if not path then error("module '" .. name .. "' not found", 2) end
      local f = assert(io.open(path, "r")); local src = f:read("a"); f:close()
      loaded[name] = assert(load(src, "@" .. path, "t", env))()
    end
    return loaded[name]
  end
  return env
end
local ENV = sandbox_env()

local function load_arch(name)
  local f = assert(io.open("architectures/" .. name .. ".lua", "r"))
  local src = f:read("a"); f:close()
  return assert(load(src, "@architectures/" .. name .. ".lua", "t", ENV))()
end

---------------------------------------------------------------------------
-- Description validation.
local DESC_KEYS = { arch = 1, family = 1, hidden = 1, layers = 1, encoder_layers = 1, vocab = 1,
  heads = 1, kv_heads = 1, head_dim = 1, intermediate = 1, max_position = 1, rotary_dim = 1, tied_embeddings = 1,
  tensors = 1, kv = 1, block = 1, rope_positions = 1, rope_rows = 1, attn_temp = 1, kv_shared_layers = 1 }
local TENSOR_KEYS = { name = 1, shape = 1, count = 1, role = 1, dtype = 1, gguf_split = 1, layout = 1, layer_ids = 1,
  buffer = 1,  -- buffer: a persistent buffer (nn.param opts.buffer; gemma4 layer_scalar)
  gguf_rows = 1 }  -- gguf_rows: the rows a GGUF keeps of a token embedding (Gemma 3)
local KV_KEYS = { layers = 1, kv_heads = 1, k_dim = 1, v_dim = 1, window = 1, mla = 1, kind = 1, tokens = 1,
  state_elems = 1, conv_elems = 1, layer_ids = 1, bytes = 1, fp8_bytes = 1,
  expanded_heads = 1, expanded_k_dim = 1, expanded_v_dim = 1,  -- expanded_*: what transformers caches
  expanded_by = 1 }  -- the serving runtimes that cache it too (MiniCPM3: vllm, llamacpp)
local KV_KINDS = { attention = 1, chunked = 1, cross = 1, mamba = 1 }
local BLOCK_KEYS = { q_dim = 1, kv_dim = 1, ffn_dim = 1, gated = 1, norm = 1, experts = 1,
  experts_per_tok = 1, expert_ffn = 1, dense_ffn = 1, parallel_residual = 1, moe_norm = 1, moe_scaled = 1,
  moe_dense_beside = 1 }
local ROLES = { embed = 1, pos_embed = 1, attn = 1, mlp = 1, expert = 1, shared_expert = 1,
  router = 1, norm = 1, lm_head = 1, other = 1 }
local FAMILIES = { decoder = 1, encoder = 1, ["encoder-decoder"] = 1 }

local function posint(v) return math.type(v) == "integer" and v > 0 end
local function nonneg(v) return math.type(v) == "integer" and v >= 0 end

local function validate(id, d)
  local errs = {}
  local function need(ok, msg) if not ok then errs[#errs + 1] = msg end end
  for k in pairs(d) do need(DESC_KEYS[k], "unknown description key '" .. tostring(k) .. "'") end
  need(type(d.arch) == "string", "arch must be a string")
  need(FAMILIES[d.family], "bad family " .. tostring(d.family))
  -- an attention-free description (architectures/mamba.lua) has heads, kv_heads and head_dim 0
  -- and only recurrent state groups
  local attn_free = d.heads == 0
  for _, k in ipairs { "hidden", "layers", "vocab", "heads", "kv_heads", "head_dim" } do
    if attn_free and (k == "heads" or k == "kv_heads" or k == "head_dim") then
      need(d[k] == 0, k .. " must be 0 beside heads 0, got " .. tostring(d[k]))
    else
      need(posint(d[k]), k .. " must be a positive integer, got " .. tostring(d[k]))
    end
  end
  if attn_free then
    local only_state = type(d.kv) == "table" and #d.kv > 0
    for _, g in ipairs(type(d.kv) == "table" and d.kv or {}) do only_state = only_state and g.kind == "mamba" end
    need(only_state, "heads 0: every kv group must be a mamba state group")
  end
  need(nonneg(d.intermediate), "intermediate must be a non-negative integer")
  need(d.max_position == nil or posint(d.max_position), "max_position must be a positive integer")
  need(d.encoder_layers == nil or posint(d.encoder_layers), "encoder_layers must be a positive integer")
  need((d.family == "encoder-decoder") == (d.encoder_layers ~= nil), "encoder_layers iff encoder-decoder")
  need(type(d.tied_embeddings) == "boolean", "tied_embeddings must be boolean")
  need(type(d.tensors) == "table" and #d.tensors > 0, "tensors must be a non-empty list")
  local names = {}
  for i, t in ipairs(d.tensors or {}) do
    local tag = ("tensor %d (%s)"):format(i, tostring(t.name))
    for k in pairs(t) do need(TENSOR_KEYS[k], tag .. ": unknown key " .. tostring(k)) end
    need(type(t.name) == "string" and t.name ~= "", tag .. ": name")
    if t.gguf_rows ~= nil then
      need(t.role == "embed" and math.type(t.gguf_rows) == "integer" and t.gguf_rows > 0 and type(t.shape) == "table"
        and t.gguf_rows <= t.shape[1], tag .. ": gguf_rows must be a token embedding's row count, at most its rows")
    end
    -- a name may repeat on disjoint nn.place'd layers (Kimi Linear's self_attn.q_proj / o_proj:
    -- the KDA layers' and the MLA layers', of other shapes)
    local prev = names[t.name]
    local disjoint = prev and type(prev) == "table" and t.layer_ids ~= nil
    if disjoint then for _, l in ipairs(t.layer_ids) do if prev[l] then disjoint = false end end end
    need(not prev or disjoint, tag .. ": duplicate name")
    local ids = type(prev) == "table" and prev or {}
    if t.layer_ids ~= nil then for _, l in ipairs(t.layer_ids) do ids[l] = true end else ids = true end
    names[t.name or ""] = prev == true and true or ids
    need(t.count == nil or posint(t.count), tag .. ": count must be a positive integer")
    need(ROLES[t.role], tag .. ": bad role " .. tostring(t.role))
    -- nn.param's layout: a 2-D parameter stored {out, in} or {in, out} (fused MoE experts, scripts/nn.lua)
    need(t.layout == nil or ((t.layout == "out_in" or t.layout == "in_out") and #(t.shape or {}) == 2),
         tag .. ": layout must be \"out_in\" or \"in_out\" on a 2-D tensor")
    need(type(t.shape) == "table" and #t.shape > 0, tag .. ": shape must be a non-empty list")
    -- nn.place: the group's layers, ascending, below the layer count, dividing its count
    if t.layer_ids ~= nil then
      local ids, okids = t.layer_ids, type(t.layer_ids) == "table" and #t.layer_ids > 0
      for k, i in ipairs(okids and ids or {}) do
        okids = okids and math.type(i) == "integer" and i >= 0 and i < (d.layers or 0) and (k == 1 or i > ids[k - 1])
      end
      need(okids and (t.count or 1) % #ids == 0, tag .. ": layer_ids must list ascending layers dividing the count")
    end
    for _, s in ipairs(t.shape or {}) do need(posint(s), tag .. ": shape entry " .. tostring(s)) end
    if t.gguf_split then   -- the parts hold the tensor's elements exactly
      local whole, parts = 1, 0
      for _, s in ipairs(t.shape or {}) do whole = whole * s end
      for _, p in ipairs(t.gguf_split) do
        local n = 1
        for _, s in ipairs(p.shape) do n = n * s end
        parts = parts + n
        local starred = (p.name:find("%*") ~= nil) == (t.name:find("%*") ~= nil)
        need(type(p.gguf) == "string" and starred, tag .. ": gguf_split part " .. tostring(p.name))
      end
      need(parts == whole, tag .. (": gguf_split parts hold %d elements, the tensor %d"):format(parts, whole))
    end
    local stars = select(2, t.name:gsub("%*", ""))
    need(stars > 0 or (t.count or 1) == 1, tag .. ": count > 1 without a '*' in the name")
  end
  need(type(d.kv) == "table", "kv must be a list")
  local kv_layers, state_layers = 0, 0
  for i, g in ipairs(d.kv or {}) do
    local tag = "kv group " .. i
    for k in pairs(g) do need(KV_KEYS[k], tag .. ": unknown key " .. tostring(k)) end
    need(g.kind == nil or KV_KINDS[g.kind], tag .. ": bad kind " .. tostring(g.kind))
    local state = g.kind == "mamba"
    need(posint(g.layers), tag .. ": layers")
    need(state and g.kv_heads == nil or posint(g.kv_heads), tag .. ": kv_heads")
    need(state and g.k_dim == nil or posint(g.k_dim), tag .. ": k_dim"); need(g.v_dim == nil or nonneg(g.v_dim), tag .. ": v_dim")
    need(not state or posint(g.state_elems), tag .. ": state_elems")
    need(g.conv_elems == nil or state and posint(g.conv_elems) and g.conv_elems <= g.state_elems, tag .. ": conv_elems")
    if g.layer_ids ~= nil then
      local ok = type(g.layer_ids) == "table" and #g.layer_ids == g.layers
      for _, i in ipairs(ok and g.layer_ids or {}) do ok = ok and nonneg(i) and i < (d.layers or 0) end
      need(ok, tag .. ": layer_ids (the group's layers, 0-based)")
    end
    need((g.kind == "cross") == posint(g.tokens), tag .. ": tokens iff cross")
    need(g.kind ~= "chunked" or posint(g.window), tag .. ": chunked needs window")
    need(g.window == nil or posint(g.window), tag .. ": window")
    need(g.mla == nil or type(g.mla) == "boolean", tag .. ": mla")
    need(g.bytes == nil or not state and g.kind ~= "cross" and posint(g.bytes), tag .. ": bytes (a token's fixed bytes)")
    need(g.fp8_bytes == nil or g.mla and posint(g.fp8_bytes), tag .. ": fp8_bytes (an MLA latent's 8-bit layout)")
    need(g.expanded_heads == nil or not state and g.kind ~= "cross" and posint(g.expanded_heads) and posint(g.expanded_k_dim)
         and (g.expanded_v_dim == nil or nonneg(g.expanded_v_dim)), tag .. ": expanded_heads / k_dim / v_dim (transformers' cached layout)")
    need(g.expanded_k_dim == nil and g.expanded_v_dim == nil or g.expanded_heads ~= nil, tag .. ": expanded_k_dim / v_dim need expanded_heads")
    local by_ok = g.expanded_by == nil or type(g.expanded_by) == "table" and g.expanded_heads ~= nil
    for _, r in ipairs(by_ok and g.expanded_by or {}) do
      by_ok = by_ok and (r == "vllm" or r == "sglang" or r == "llamacpp")
    end
    need(by_ok, tag .. ": expanded_by (vllm / sglang / llamacpp, with expanded_heads)")
    local n = posint(g.layers) and g.layers or 0
    -- a group of fixed bytes (DeepSeek-V3.2's indexer keys) sits beside the attention of its layers
    if g.bytes then n = 0 end
    if state then state_layers = state_layers + n else kv_layers = kv_layers + n end
  end
  -- the groups partition the layers; a state group may instead sit beside attention groups that
  -- cover every layer (Falcon-H1: attention and Mamba-2 heads in parallel in each layer)
  local L = d.layers or 0
  -- layers that read an earlier layer's K/V and cache none of their own (Gemma 3n)
  need(d.kv_shared_layers == nil or posint(d.kv_shared_layers), "kv_shared_layers must be a positive integer")
  kv_layers = kv_layers + (d.kv_shared_layers or 0)
  -- or the state group covers every layer and attention groups some of them (Zamba2: a Mamba-2 mixer
  -- in each layer, a shared attention block's K/V in the hybrid ones)
  local parallel = kv_layers == L and state_layers <= L or state_layers == L and kv_layers <= L
  need(kv_layers + state_layers <= L or parallel, "kv groups cover more layers than the model has")
  -- a hybrid's layers without a token mixer cache nothing (Nemotron-H's MLP-only '-' layers)
  local mlp_only = state_layers > 0 and kv_layers + state_layers < L and d.arch == "nemotron_h"
  need(d.family ~= "decoder" or kv_layers + state_layers == L or parallel or mlp_only, "a decoder caches K/V on every layer")
  need(d.family ~= "encoder" or #(d.kv or {}) == 0, "an encoder has no KV cache")
  local b = d.block
  need(type(b) == "table", "block must be a table")
  if type(b) == "table" then
    for k in pairs(b) do need(BLOCK_KEYS[k], "block: unknown key " .. tostring(k)) end
    for _, k in ipairs { "q_dim", "kv_dim", "ffn_dim" } do
      -- attention-free (heads 0): no attention, and a Mamba layer has no MLP either
      if attn_free then need(b[k] == 0, "block." .. k .. " must be 0 beside heads 0") else need(posint(b[k]), "block." .. k) end
    end
    need(type(b.gated) == "boolean", "block.gated"); need(b.norm == "rms" or b.norm == "layer", "block.norm")
    need(nonneg(b.experts) and nonneg(b.experts_per_tok), "block.experts / experts_per_tok")
    need((b.experts_per_tok or 0) <= (b.experts or 0), "experts_per_tok > experts")
    need(type(b.parallel_residual) == "boolean", "block.parallel_residual")
    need(b.moe_norm == nil or type(b.moe_norm) == "boolean", "block.moe_norm")
  end
  for _, e in ipairs(errs) do check(false, id .. ": " .. e) end
  if #errs == 0 then check(true, "") end
  return #errs == 0
end

local params = require("nn").params -- checked against the published counts below

local function kv_bytes(d, bytes)
  local total = 0
  for _, g in ipairs(d.kv) do
    if g.bytes then total = total + g.layers * g.bytes
    elseif g.kind ~= "mamba" then total = total + g.layers * g.kv_heads * (g.k_dim + g.v_dim) * bytes end
  end
  return total
end

---------------------------------------------------------------------------
-- Load the scripts; every model_type resolves to exactly one script.
local by_type, archs = {}, {}
for _, name in ipairs(ARCH_FILES) do
  local ok, a = pcall(load_arch, name)
  if check(ok and type(a) == "table" and a.__kind == "arch", "loading " .. name .. ": " .. tostring(a)) then
    archs[name] = a
    check(a.name == name, name .. ": name differs from the file name")
    check(type(a.summary) == "string" and a.summary ~= "", name .. ": summary")
    for _, mt in ipairs(a.model_types) do
      check(by_type[mt] == nil, ("model_type '%s' claimed by two scripts"):format(mt))
      by_type[mt] = a
    end
  end
end
-- Every architectures/*.lua (except presets) is in ARCH_FILES.
local p = io.popen and io.popen("ls architectures")
if p then
  local listed = {}
  for _, n in ipairs(ARCH_FILES) do listed[n .. ".lua"] = true end
  for _, n in ipairs { "sd", "flux", "sd3", "pixart", "wan", "hunyuanvideo", "cogvideox", "ltx", "mochi", "opensora",
                       "hunyuandit", "qwenimage", "flux2", "zimage", "hunyuanvideo15", "hidream", "sana", "chroma", "lumina2", "hunyuanimage" } do
    listed[n .. ".lua"] = true -- pipelines: tests/lua/test_generation.lua
  end
  for f in p:lines() do
    if f:match("%.lua$") and f ~= "presets.lua" then check(listed[f], f .. " is not in ARCH_FILES") end
  end
  p:close()
end
for _, mt in ipairs { "llama", "qwen2", "qwen3", "qwen3_moe", "qwen2_moe", "mixtral", "gemma2", "gemma3", "gemma3_text",
                      "gpt_neox", "gpt_oss", "deepseek_v2", "deepseek_v3", "phi3", "gpt2", "falcon",
                      "bert", "t5", "mt5", "bloom", "mistral", "llama4", "llama4_text", "qwen3_next",
                      "qwen2_5_vl", "mllama", "mistral3", "glm4_moe", "qwen3_5",
                      "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text", "kimi_k2", "minimax_m2",
                      "granitemoehybrid", "falcon_h1", "lfm2", "qwen3_vl", "qwen3_vl_moe",
                      -- architecture families A
                      "gemma", "phi", "phimoe", "olmo2", "olmoe", "granite", "granitemoe",
                      "cohere", "cohere2", "starcoder2", "smollm3", "gemma3n", "gemma3n_text",
                      -- arch-vlm
                      "llava", "llava_next", "internvl", "idefics3", "smolvlm", "glm4v",
                      -- arch-vlm2
                      "glm4v_moe", "llava_onevision" } do
  check(by_type[mt] ~= nil, "no script for model_type " .. mt)
end

---------------------------------------------------------------------------
-- Build every preset.
local presets = ENV.require("presets")
check(type(presets.models) == "table" and type(presets.aliases) == "table", "presets: models and aliases")
local ids = {}
-- diffusion/video pipelines (multi-component descriptions) are checked by tests/lua/test_generation.lua
local PIPELINES = { stable_diffusion = true, flux = true, sd3 = true, pixart = true, wan = true, hunyuanvideo = true,
                    cogvideox = true, ltx_video = true, mochi = true, opensora = true, hunyuandit = true,
                    qwenimage = true, flux2 = true, zimage = true, hunyuanvideo15 = true, hidream = true, sana = true, chroma = true, lumina2 = true, hunyuanimage = true }
for id, m in pairs(presets.models) do
  if not PIPELINES[m.arch] then ids[#ids + 1] = id end
end
table.sort(ids)
local built, counts = {}, {}
for _, id in ipairs(ids) do
  local m = presets.models[id]
  local a = by_type[m.arch]
  if check(a ~= nil, id .. ": no script for arch " .. tostring(m.arch)) then
    local ok, d = pcall(a.build, m.config)
    if check(ok and type(d) == "table", id .. ": build failed: " .. tostring(d)) and validate(id, d) then
      built[id] = d
      counts[id] = params(d)
      check(math.type(counts[id]) == "integer", id .. ": parameter count is not an integer")
    end
  end
end
for id, want in pairs(EXPECTED_PARAMS) do
  check(built[id] ~= nil, id .. ": expected preset missing")
  if built[id] then
    check(counts[id] == want, ("%s: %d parameters, expected %d (diff %d)"):format(id, counts[id], want, counts[id] - want))
  end
end
-- gemma-4-E4B: the published "8B" (see the gemma4 block above), to the nearest billion
check(counts["google/gemma-4-E4B-it"] ~= nil and counts["google/gemma-4-E4B-it"] >= 7.5e9
      and counts["google/gemma-4-E4B-it"] < 8.5e9, ("google/gemma-4-E4B-it: %s parameters, published 8B")
      :format(tostring(counts["google/gemma-4-E4B-it"])))
for id, want in pairs(EXPECTED_KV_BF16) do
  if check(built[id] ~= nil, id .. ": preset missing for KV check") then
    local got = kv_bytes(built[id], 2)
    check(got == want, ("%s: KV %d bytes/token, expected %d"):format(id, got, want))
  end
end
for id, want in pairs(EXPECTED_WINDOWS) do
  if check(built[id] ~= nil, id .. ": preset missing for window check") then
    local got = {}
    for _, g in ipairs(built[id].kv) do local k = g.window or "full"; got[k] = (got[k] or 0) + g.layers end
    for k, v in pairs(want) do check(got[k] == v, ("%s: %s layers = %s, expected %d"):format(id, k, tostring(got[k]), v)) end
    for k in pairs(got) do check(want[k] ~= nil, ("%s: unexpected kv group %s"):format(id, k)) end
  end
end
for alias, base in pairs(presets.aliases) do
  check(presets.models[base] ~= nil, ("alias %s -> %s: base is not a preset"):format(alias, base))
  check(presets.models[alias] == nil, ("alias %s is also a preset"):format(alias))
end

---------------------------------------------------------------------------
-- Specific shapes and descriptions.
local function deep_copy(t)
  if type(t) ~= "table" then return t end
  local c = {}; for k, v in pairs(t) do c[k] = deep_copy(v) end; return c
end
local function build(archname, cfg) return by_type[archname].build(cfg) end
local function cfg_of(id) return deep_copy(presets.models[id].config) end

-- Gemma 3 text part alone (models_README: 27,009,346,304).
do
  local c = cfg_of("google/gemma-3-27b-it"); c.vision_config = nil
  check(params(build("gemma3", c)) == 27009346304, "gemma-3-27b text-only count")
  local t = deep_copy(c.text_config)
  check(params(build("gemma3_text", t)) == 27009346304, "gemma3_text top-level config count")
end
-- LLaVA: the CLIP tower's 577 positions (24 x 24 patches + the class token), the text model
-- filled from LlamaConfig's defaults, names as the llava-hf checkpoints store them; a list of
-- vision_feature_layer concatenates the states (linear_1 takes 1024 x n); refused fields.
do
  local d = built["llava-hf/llava-1.5-7b-hf"]
  if d then
    local by = {}
    for _, x in ipairs(d.tensors) do by[x.name] = x end
    local pos = by["vision_tower.vision_model.embeddings.position_embedding.weight"]
    check(pos and pos.shape[1] == 577 and pos.shape[2] == 1024, "llava-1.5 CLIP position table 577 x 1024")
    check(by["language_model.lm_head.weight"] and by["language_model.lm_head.weight"].shape[1] == 32064,
          "llava-1.5 lm_head 32064 rows under language_model")
    check(d.layers == 32 and d.hidden == 4096 and d.intermediate == 11008 and d.max_position == 4096,
          "llava-1.5 text shapes from LlamaConfig defaults")
    check(by["image_newline"] == nil, "llava-1.5 has no image_newline")
  end
  local n = built["llava-hf/llava-v1.6-mistral-7b-hf"]
  check(n and n.kv[1].window == nil and n.kv_heads == 8, "llava-next mistral: 8 KV heads, no window (sliding_window null)")
  local c = cfg_of("llava-hf/llava-1.5-7b-hf"); c.vision_feature_layer = { -24, -20, -12, -1 }
  check(params(build("llava", c)) == 7063427072 + 3 * 1024 * 4096, "llava: 4 feature layers widen linear_1")
  c = cfg_of("llava-hf/llava-1.5-7b-hf"); c.text_config.model_type = "gemma"
  local ok, err = pcall(build, "llava", c)
  check(not ok and err == 'config: field \'text_config.model_type\' "gemma" is not supported (llama, mistral, qwen2)',
        "llava: unsupported text model named: " .. tostring(err))
  c = cfg_of("llava-hf/llava-1.5-7b-hf"); c.vision_config.model_type = "pixtral"
  ok, err = pcall(build, "llava", c)
  check(not ok and err == 'config: field \'vision_config.model_type\' "pixtral" is not supported (clip_vision_model, siglip_vision_model)',
        "llava: unsupported tower named: " .. tostring(err))
end
-- InternVL: the tower's [448, 448] / [14, 14] pairs give 1025 positions; the 6B tower's options
-- (RMSNorm layers, whole-width q/k norms, no attention bias) change the per-layer tensors; the
-- projector's LayerNorm spans the shuffled width (1 / downsample_ratio)^2 x 1024; refused fields.
do
  local d = built["OpenGVLab/InternVL3-8B-hf"]
  if d then
    local by = {}
    for _, x in ipairs(d.tensors) do by[x.name] = x end
    local pos = by["model.vision_tower.embeddings.position_embeddings"]
    check(pos and pos.shape[2] == 1025 and pos.shape[3] == 1024, "internvl: 1 x 1025 x 1024 positions")
    local ln = by["model.multi_modal_projector.layer_norm.weight"]
    check(ln and ln.shape[1] == 4096, "internvl: projector LayerNorm over 4 x 1024")
    check(by["lm_head.weight"] and by["model.language_model.embed_tokens.weight"], "internvl: -hf names")
  end
  local c = cfg_of("OpenGVLab/InternVL3-8B-hf")
  c.vision_config.norm_type = "rms_norm"; c.vision_config.use_qk_norm = true; c.vision_config.attention_bias = false
  -- each of 24 layers: - 2 LayerNorm biases (2,048) - 3 q/k/v biases (3,072) + q/k norms (2,048)
  check(params(build("internvl", c)) == 7944373760 + 24 * (-2048 - 3072 + 2048), "internvl: 6B-style tower options")
  c = cfg_of("OpenGVLab/InternVL3-8B-hf"); c.vision_config.norm_type = "batch_norm"
  local ok, err = pcall(build, "internvl", c)
  check(not ok and err == 'config: field \'vision_config.norm_type\' "batch_norm" is not supported (layer_norm, rms_norm)',
        "internvl: unknown norm_type named: " .. tostring(err))
  c = cfg_of("OpenGVLab/InternVL3-8B-hf"); c.vision_config.image_size = { 448 }
  ok, err = pcall(build, "internvl", c)
  check(not ok and err == "config: field 'vision_config.image_size' must be a positive integer or a [height, width] pair",
        "internvl: bad image_size named: " .. tostring(err))
end
-- Idefics3 / SmolVLM: 1024 positions without a class token at 512 px / 16, the connector over
-- 768 x 4^2; SmolVLM2's model_type builds the same modules; a tied lm_head drops 28,385,280; a
-- scale_factor that does not tile the patch grid is refused.
do
  local d = built["HuggingFaceTB/SmolVLM-256M-Instruct"]
  if d then
    local by = {}
    for _, x in ipairs(d.tensors) do by[x.name] = x end
    local pos = by["model.vision_model.embeddings.position_embedding.weight"]
    check(pos and pos.shape[1] == 1024 and pos.shape[2] == 768, "smolvlm: 1024 x 768 positions")
    local pr = by["model.connector.modality_projection.proj.weight"]
    check(pr and pr.shape[1] == 576 and pr.shape[2] == 12288 and by["model.connector.modality_projection.proj.bias"] == nil,
          "smolvlm: bias-free connector 12288 -> 576")
  end
  local c = cfg_of("HuggingFaceTB/SmolVLM-256M-Instruct"); c.model_type = "smolvlm"
  check(params(build("smolvlm", c)) == 256484928, "smolvlm model_type: same modules")
  c.tie_word_embeddings = true; c.text_config.tie_word_embeddings = true
  check(params(build("smolvlm", c)) == 256484928 - 49280 * 576, "smolvlm: tied lm_head")
  c = cfg_of("HuggingFaceTB/SmolVLM-256M-Instruct"); c.scale_factor = 3
  local ok, err = pcall(build, "idefics3", c)
  check(not ok and err == "config: field 'scale_factor' 3 does not divide the tower's 1024 patches into 3 x 3 groups",
        "idefics3: bad scale_factor named: " .. tostring(err))
end
-- LLaVA-OneVision: SigLIP-so400m at 384 px has 27 x 27 = 729 positions and no class token (384 // 14,
-- the convolution dropping the remainder); image_newline; an absent vision_config is
-- LlavaOnevisionConfig's 26-layer headless SigLIP; vision_use_head adds the pooling head's
-- probe, packed in_proj, out_proj, LayerNorm and MLP.
do
  local d = built["llava-hf/llava-onevision-qwen2-7b-ov-hf"]
  if d then
    local by = {}
    for _, x in ipairs(d.tensors) do by[x.name] = x end
    local pos = by["vision_tower.vision_model.embeddings.position_embedding.weight"]
    check(pos and pos.shape[1] == 729 and pos.shape[2] == 1152, "llava-onevision: 729 SigLIP positions")
    check(by["vision_tower.vision_model.embeddings.class_embedding"] == nil, "llava-onevision: no class token")
    check(by["vision_tower.vision_model.embeddings.patch_embedding.bias"] ~= nil, "llava-onevision: biased patch conv")
    local l1 = by["multi_modal_projector.linear_1.weight"]
    check(l1 and l1.shape[1] == 3584 and l1.shape[2] == 1152, "llava-onevision: projector 1152 -> 3584")
    check(by["image_newline"] ~= nil and by["language_model.lm_head.weight"].shape[1] == 152128,
          "llava-onevision: image_newline, 152,128-row lm_head")
  end
  local c = cfg_of("llava-hf/llava-onevision-qwen2-7b-ov-hf"); c.vision_config = nil
  check(params(build("llava", c)) == 8030807584, "llava-onevision: default vision_config = the preset's tower")
  c = cfg_of("llava-hf/llava-onevision-qwen2-7b-ov-hf"); c.vision_config.vision_use_head = true
  local head = 1152 + 3 * 1152 * 1152 + 3 * 1152 + 1152 * 1152 + 1152 + 2 * 1152 + 2 * 1152 * 4304 + 4304 + 1152
  check(params(build("llava", c)) == 8030807584 + head, "llava-onevision: vision_use_head adds the pooling head")
end
-- GLM-4.1V / 4.6V-Flash: an empty glm4v config builds transformers' defaults (the same count); the
-- tower's SwiGLU is out_hidden_size wide and the merger's intermediate_size; M-RoPE over 64 of 128
-- dims; a merger that does not feed the decoder's width is refused.
do
  check(params(build("glm4v", { model_type = "glm4v" })) == 10292777472, "glm4v: Glm4vConfig defaults = GLM-4.6V-Flash")
  local d = built["zai-org/GLM-4.6V-Flash"]
  if d then
    local by = {}
    for _, x in ipairs(d.tensors) do by[x.name] = x end
    local g = by["model.visual.blocks.*.mlp.gate_proj.weight"]
    check(g and g.shape[1] == 4096 and g.shape[2] == 1536 and g.count == 24, "glm4v: tower MLP 1536 -> 4096")
    local m = by["model.visual.merger.gate_proj.weight"]
    check(m and m.shape[1] == 13696 and m.shape[2] == 4096, "glm4v: merger MLP 4096 -> 13696")
    check(d.rope_positions == 4 and d.rotary_dim == 64, "glm4v: M-RoPE over half the head")
  end
  local c = cfg_of("zai-org/GLM-4.6V-Flash"); c.vision_config.out_hidden_size = 3584
  local ok, err = pcall(build, "glm4v", c)
  check(not ok and err == "config: field 'vision_config.out_hidden_size' 3584 must equal text_config.hidden_size 4096 "
        .. "(the merger feeds the decoder)", "glm4v: mismatched merger width named: " .. tostring(err))
end
-- InternVL3.5-8B-HF: the Qwen3 decoder's q/k norms under model.language_model; the checkpoint's 841
-- tensors (Qwen3-8B 399, InternViT-300M 436, projector 6).
do
  local d = built["OpenGVLab/InternVL3_5-8B-HF"]
  if d then
    local by, n = {}, 0
    for _, x in ipairs(d.tensors) do by[x.name] = x; n = n + x.count end
    check(n == 841, "InternVL3.5-8B-HF: 841 checkpoint tensors, got " .. n)
    local q = by["model.language_model.layers.*.self_attn.q_norm.weight"]
    check(q and q.shape[1] == 128 and q.count == 36, "InternVL3.5-8B-HF: Qwen3 q_norm {128} x 36")
    local l1 = by["model.multi_modal_projector.linear_1.weight"]
    check(l1 and l1.shape[1] == 4096 and l1.shape[2] == 4096, "InternVL3.5-8B-HF: projector 4096 -> 4096")
  end
end
-- InternVL3.5's MoE backbones (30B-A3B: Qwen3-30B-A3B; 20B-A4B: gpt-oss-20b) build through moe.lua and
-- gpt_oss.lua: no exact published total was found for either -HF checkpoint, so these sums are vramfit's
-- own, held to the text models' asserted counts + InternViT-300M 304,012,288 + the projector
-- (LayerNorm 4096, linear_1 4096 -> hidden, linear_2 hidden -> hidden, biased).
do
  local function proj(h) return 2 * 4096 + 4096 * h + h + h * h + h end
  local c = cfg_of("OpenGVLab/InternVL3_5-8B-HF"); c.text_config = cfg_of("Qwen/Qwen3-30B-A3B")
  local d = build("internvl", c)
  check(params(d) == 30532122624 + 304012288 + proj(2048), "InternVL3.5-30B-A3B: " .. params(d))
  check(d.block.experts == 128 and d.block.experts_per_tok == 8, "InternVL3.5-30B-A3B: 8 of 128 experts")
  c = cfg_of("OpenGVLab/InternVL3_5-8B-HF"); c.text_config = cfg_of("openai/gpt-oss-20b")
  check(params(build("internvl", c)) == 20914757184 + 304012288 + proj(2880), "InternVL3.5-GPT-OSS-20B-A4B")
  c = cfg_of("OpenGVLab/InternVL3_5-8B-HF"); c.text_config.model_type = "gemma2"
  local ok, err = pcall(build, "internvl", c)
  check(not ok and err == 'config: field \'text_config.model_type\' "gemma2" is not supported (qwen2, qwen3, qwen3_moe, gpt_oss, llama)',
        "internvl: unsupported text model named: " .. tostring(err))
end
-- GLM-4.5V: GLM-4.5-Air's MoE decoder renamed under model.language_model, the GLM-4.1V tower with a
-- 10944-wide merger; the checkpoint's 18,106 tensors (46 x 8 attention + 46 x 2 norms + 3 dense MLP +
-- 45 x (128 x 3 experts + 3 shared + gate + bias) + embed, norm, lm_head + 24 x 7 tower blocks + 15
-- tower and merger tensors).
do
  local d = built["zai-org/GLM-4.5V"]
  if d then
    local by, n = {}, 0
    for _, x in ipairs(d.tensors) do by[x.name] = x; n = n + x.count end
    check(n == 18106, "GLM-4.5V: 18,106 checkpoint tensors, got " .. n)
    local e = by["model.language_model.layers.*.mlp.experts.*.gate_proj.weight"]
    check(e and e.shape[1] == 1408 and e.count == 45 * 128, "GLM-4.5V: 45 x 128 experts of 1408")
    local m = by["model.visual.merger.gate_proj.weight"]
    check(m and m.shape[1] == 10944 and m.shape[2] == 4096, "GLM-4.5V: merger MLP 4096 -> 10944")
    check(d.block.experts == 128 and d.block.experts_per_tok == 8, "GLM-4.5V: 8 of 128 experts")
    check(d.rope_positions == 4 and d.rotary_dim == 64, "GLM-4.5V: M-RoPE over half the head")
  end
end
-- DeepSeek-V2-Lite MoE routing fields; Mixtral block.
do
  local d = built["deepseek-ai/DeepSeek-V2-Lite"]
  if d then
    check(d.block.experts == 64 and d.block.experts_per_tok == 6, "DeepSeek-V2-Lite experts")
    check(d.block.ffn_dim == (6 + 2) * 1408, "DeepSeek-V2-Lite ffn_dim = (top_k + shared) * moe_I")
    check(d.kv[1].mla == true and d.kv[1].v_dim == 0 and d.kv[1].k_dim == 576, "DeepSeek MLA kv group")
  end
  local m = built["mistralai/Mixtral-8x7B-v0.1"]
  if m then check(m.block.ffn_dim == 2 * 14336 and m.block.experts == 8, "Mixtral block") end
  local q = built["Qwen/Qwen3-30B-A3B"]
  if q then check(q.block.ffn_dim == 8 * 768 and q.block.experts == 128, "Qwen3-MoE block") end
  -- Qwen2-MoE: the shared expert runs for every token beside the top-k routed ones; its
  -- sigmoid gate is a 1 x hidden linear without bias; q/k/v biased, o_proj not, no q/k norm
  local q2 = built["Qwen/Qwen1.5-MoE-A2.7B"]
  if q2 then
    check(q2.block.ffn_dim == 4 * 1408 + 5632 and q2.block.experts == 60, "Qwen2-MoE block")
    local seen = {}
    for _, t in ipairs(q2.tensors) do seen[t.name] = t end
    local g = seen["model.layers.*.mlp.shared_expert_gate.weight"]
    check(g and g.shape[1] == 1 and g.shape[2] == 2048 and g.count == 24, "Qwen2-MoE shared_expert_gate")
    check(seen["model.layers.*.mlp.shared_expert_gate.bias"] == nil, "Qwen2-MoE shared_expert_gate has no bias")
    check(seen["model.layers.*.mlp.shared_expert.gate_proj.weight"].role == "shared_expert", "Qwen2-MoE shared expert role")
    check(seen["model.layers.*.self_attn.q_proj.bias"] and seen["model.layers.*.self_attn.o_proj.bias"] == nil,
      "Qwen2-MoE q/k/v bias only")
    check(seen["model.layers.*.self_attn.q_norm.weight"] == nil, "Qwen2-MoE: no q/k norm")
  end
  local e = 0
  for _, t in ipairs(m and m.tensors or {}) do if t.role == "expert" then e = e + 1; check(t.count == 32 * 8, "Mixtral expert count") end end
  check(e == 3, "Mixtral: three expert tensors (w1, w3, w2)")
end
-- GLM-4.5 family: bf16 weight bytes (e_score_correction_bias stored and held in fp32: 2 more
-- bytes for each of 89 x 160 / 45 x 128 elements), MoE block, q/k norm only where use_qk_norm,
-- and the MTP layer = one more MoE decoder layer when num_hidden_layers grows by
-- num_nextn_predict_layers (what an MTP drafter would add).
do
  local function bf16_bytes(d)
    local b = 0
    for _, t in ipairs(d.tensors) do
      local p = t.count or 1
      for _, s in ipairs(t.shape) do p = p * s end
      b = b + p * (t.dtype == "fp32" and 4 or 2)
    end
    return b
  end
  local function has(d, pat) for _, t in ipairs(d.tensors) do if t.name:find(pat) then return true end end return false end
  local g, a = built["zai-org/GLM-4.5"], built["zai-org/GLM-4.5-Air"]
  if g and a then
    check(bf16_bytes(g) == 705595686528, "GLM-4.5 bf16 bytes: " .. bf16_bytes(g))
    check(bf16_bytes(a) == 213704514048, "GLM-4.5-Air bf16 bytes: " .. bf16_bytes(a))
    check(g.block.experts == 160 and g.block.experts_per_tok == 8 and g.block.ffn_dim == 9 * 1536, "GLM-4.5 block")
    check(a.block.experts == 128 and a.block.ffn_dim == 9 * 1408 and a.intermediate == 10944, "GLM-4.5-Air block")
    check(has(g, "q_norm") and not has(a, "q_norm") and not has(g, "o_proj%.bias") and has(a, "k_proj%.bias"),
          "GLM q/k norm per use_qk_norm; qkv bias, no o bias")
    check(#g.kv == 1 and g.kv[1].layers == 92 and g.kv[1].kv_heads == 8 and g.kv[1].k_dim == 128, "GLM-4.5 GQA kv")
    check(built["zai-org/GLM-4.6"].max_position == 202752, "GLM-4.6 context")
    local c = cfg_of("zai-org/GLM-4.5"); c.num_hidden_layers = 93
    check(params(build("glm4_moe", c)) - counts["zai-org/GLM-4.5"] == 3935625632, "GLM-4.5 MTP layer = one MoE layer")
  end
end
-- Kimi-K2 (kimi_k2 built as deepseek_v3: noaux_tc bias per MoE layer) and MiniMax-M2 (q/k norm
-- over the whole projection, 256 routed experts and no shared one in every layer).
do
  local function shape_of(d, name) for _, t in ipairs(d.tensors) do if t.name == name then return t.shape, t.count end end end
  local k, m = built["moonshotai/Kimi-K2-Instruct"], built["MiniMaxAI/MiniMax-M2"]
  if k and m then
    local s, n = shape_of(k, "model.layers.*.mlp.gate.e_score_correction_bias")
    check(s and s[1] == 384 and n == 60, "Kimi-K2 e_score_correction_bias on 60 MoE layers")
    check(k.block.experts == 384 and k.block.ffn_dim == 9 * 2048 and k.kv[1].mla and k.kv[1].k_dim == 576, "Kimi-K2 block / MLA kv")
    check(built["moonshotai/Kimi-K2-Thinking"].max_position == 262144, "Kimi-K2-Thinking context")
    check(shape_of(m, "model.layers.*.self_attn.q_norm.weight")[1] == 48 * 128
          and shape_of(m, "model.layers.*.self_attn.k_norm.weight")[1] == 8 * 128, "MiniMax-M2 per_layer q/k norm")
    local _, e = shape_of(m, "model.layers.*.block_sparse_moe.experts.*.w1.weight")
    check(e == 62 * 256 and m.intermediate == 0 and m.block.ffn_dim == 8 * 1536, "MiniMax-M2 experts, no dense FFN")
  end
end
-- Tying: Qwen2.5-0.5B has no lm_head; Llama-3.1-8B has one; a llama config without the key is untied.
do
  local function has(d, name) for _, t in ipairs(d.tensors) do if t.name == name then return true end end return false end
  local q = built["Qwen/Qwen2.5-0.5B"]
  if q then check(not has(q, "lm_head.weight") and q.tied_embeddings, "Qwen2.5-0.5B tied") end
  local l = built["meta-llama/Llama-2-7b-hf"]
  if l then check(has(l, "lm_head.weight") and not l.tied_embeddings, "Llama-2 default untied") end
  local phi = built["microsoft/Phi-3-mini-4k-instruct"]
  if phi then check(has(phi, "model.layers.*.self_attn.qkv_proj.weight") and has(phi, "model.layers.*.mlp.gate_up_proj.weight"), "Phi-3 fused names") end
  local q25 = built["Qwen/Qwen2.5-7B"]
  if q25 then check(has(q25, "model.layers.*.self_attn.q_proj.bias") and not has(q25, "model.layers.*.self_attn.o_proj.bias"), "Qwen2 q bias, no o bias") end
  local t5 = built["google-t5/t5-3b"]
  if t5 then check(t5.tied_embeddings and not has(t5, "lm_head.weight") and t5.encoder_layers == 24, "t5-3b tied, 24 encoder layers") end
  local mt0 = built["bigscience/mt0-xxl"]
  if mt0 then check(has(mt0, "lm_head.weight") and mt0.block.gated, "mt0-xxl untied gated") end
end
-- Qwen2 with use_sliding_window: layers from max_window_layers on use the window.
do
  local c = cfg_of("Qwen/Qwen2.5-7B"); c.use_sliding_window = true; c.sliding_window = 4096; c.max_window_layers = 20
  local got = {}
  for _, g in ipairs(build("qwen2", c).kv) do got[g.window or "full"] = g.layers end
  check(got.full == 20 and got[4096] == 8, "Qwen2 use_sliding_window split")
end
-- Integral floats are accepted as integers; other floats are rejected.
do
  local c = cfg_of("meta-llama/Llama-3.1-8B"); c.hidden_size = 4096.0
  local ok, d = pcall(build, "llama", c)
  check(ok and params(d) == 8030261248, "hidden_size 4096.0 accepted as 4096")
end

-- Granite 4.0 hybrids: Mamba-2 state per layer = conv (4 - 1) x (d_inner + 2 x groups x d_state)
-- + heads x head_dim x d_state (vLLM mamba2_state_shape; llama.cpp n_embd_r + n_embd_s).
do
  local g = built["ibm-granite/granite-4.0-h-small"]
  if g then
    local st = g.kv[2]
    check(st.kind == "mamba" and st.layers == 36 and st.conv_elems == 3 * (8192 + 256)
          and st.state_elems == 3 * (8192 + 256) + 128 * 64 * 128, "granite-4.0-h-small Mamba-2 state group")
    check(g.kv[1].layers == 4 and g.kv[1].kv_heads == 8 and g.kv[1].k_dim == 128, "granite-4.0-h-small attention group")
    check(g.block.experts == 72 and g.block.experts_per_tok == 10 and g.block.ffn_dim == 10 * 768 + 1536,
          "granite-4.0-h-small block")
    local names = {}
    for _, t in ipairs(g.tensors) do names[t.name] = t end
    local ip = names["model.layers.*.mamba.in_proj.weight"]
    check(ip and ip.count == 36 and ip.shape[1] == 2 * 8192 + 2 * 128 + 128 and ip.shape[2] == 4096,
          "granite-4.0-h-small in_proj {2 d_inner + 2 G N + H, h}")
    local cw = names["model.layers.*.mamba.conv1d.weight"]
    check(cw and cw.shape[1] == 8448 and cw.shape[2] == 1 and cw.shape[3] == 4, "granite-4.0-h-small conv1d")
    check(names["lm_head.weight"] == nil, "granite-4.0-h-small: tied embedding")
  end
  local m = built["ibm-granite/granite-4.0-micro"]
  if m then check(#m.kv == 1 and m.kv[1].layers == 40 and m.block.experts == 0 and m.intermediate == 8192,
    "granite-4.0-micro: dense, attention only") end
  local ok, err = pcall(build, "granitemoehybrid", (function()
    local c = cfg_of("ibm-granite/granite-4.0-h-tiny"); c.layer_types[3] = "conv"; return c end)())
  check(not ok and tostring(err):match("unknown layer type"), "granitemoehybrid: unknown layer type rejected")
end

-- Falcon-H1: attention and Mamba-2 side by side in every layer, so two groups of all 44 layers;
-- state per layer 3 x (3072 + 2 x 256) + 24 x 128 x 256.
do
  local f = built["tiiuae/Falcon-H1-7B-Instruct"]
  if f then
    check(#f.kv == 2 and f.kv[1].layers == 44 and f.kv[2].kind == "mamba" and f.kv[2].layers == 44
          and f.kv[2].conv_elems == 3 * 3584 and f.kv[2].state_elems == 3 * 3584 + 24 * 128 * 256,
          "Falcon-H1-7B: parallel attention and Mamba-2 state groups")
    local names = {}
    for _, t in ipairs(f.tensors) do names[t.name] = t end
    check(names["model.layers.*.mamba.norm.weight"] == nil and names["model.final_layernorm.weight"] ~= nil
          and names["model.layers.*.feed_forward.gate_proj.weight"] ~= nil, "Falcon-H1-7B: tensor names")
    local c = cfg_of("tiiuae/Falcon-H1-7B-Instruct"); c.mamba_rms_norm = true
    check(params(build("falcon_h1", c)) == 7585513568 + 44 * 3072, "Falcon-H1: mamba_rms_norm adds the gated norm")
  end
end

-- LFM2: the short-conv state is all conv window, 2 x 2048 per layer; layer_types and the older
-- full_attn_idxs give the same model; the FFN width is Lfm2MLP's adjusted one.
do
  local m = built["LiquidAI/LFM2-1.2B"]
  if m then
    local st = m.kv[2]
    check(st.kind == "mamba" and st.layers == 10 and st.state_elems == 2 * 2048 and st.conv_elems == 2 * 2048,
          "LFM2-1.2B short-conv state group")
    check(m.intermediate == 8192 and m.tied_embeddings == true, "LFM2-1.2B: FFN width 8192, tied")
    local c = cfg_of("LiquidAI/LFM2-1.2B"); c.full_attn_idxs = nil
    c.layer_types = {}
    for i = 0, 15 do c.layer_types[i + 1] = ({ [2] = 1, [5] = 1, [8] = 1, [10] = 1, [12] = 1, [14] = 1 })[i]
      and "full_attention" or "conv" end
    check(params(build("lfm2", c)) == 1170340608, "LFM2: layer_types spelling")
    c.block_auto_adjust_ff_dim = false; c.block_ff_dim = nil; c.intermediate_size = 10752
    check(build("lfm2", c).intermediate == 10752, "LFM2: no auto-adjust keeps intermediate_size")
    local bad = cfg_of("LiquidAI/LFM2-1.2B"); bad.full_attn_idxs = { 2, 16 }
    local ok, err = pcall(build, "lfm2", bad)
    check(not ok and tostring(err) == "config: field 'full_attn_idxs' entry 2 must be a layer index 0 to 15, got 16",
          "LFM2: full_attn_idxs out of range rejected")
    bad = cfg_of("LiquidAI/LFM2-1.2B"); bad.tie_embedding = "yes"
    ok, err = pcall(build, "lfm2", bad)
    check(not ok and tostring(err) == "config: field 'tie_embedding' must be true or false, got \"yes\"",
          "LFM2: tie_embedding must be a boolean")
  end
end

-- serve2: state, cross-attention and chunked groups.
do
  local q = built["Qwen/Qwen3-Next-80B-A3B-Instruct"]
  if q then
    local st = q.kv[2]
    -- conv (4 - 1) x (2 x 16 x 128 + 32 x 128) + recurrent 32 x 128 x 128 elements per layer
    check(st.kind == "mamba" and st.layers == 36 and st.state_elems == 3 * 8192 + 32 * 128 * 128
          and st.conv_elems == 3 * 8192,
          "Qwen3-Next DeltaNet state group")
    check(q.block.ffn_dim == 10 * 512 + 512 and q.block.experts == 512, "Qwen3-Next block")
  end
  -- Qwen3.5-35B-A3B: 30 DeltaNet layers, conv 3 x (2 x 16 x 128 + 32 x 128) + 32 x 128 x 128
  -- per layer = 548,864 elements; llama.cpp's RS buffer holds them in F32: 30 x 548,864 x 4 =
  -- 65,863,680 bytes per sequence. Routed experts fused per layer, 40 x 256 of them.
  local q5 = built["Qwen/Qwen3.5-35B-A3B"]
  if q5 then
    local st, e = q5.kv[2], nil
    check(st.kind == "mamba" and st.layers == 30 and st.state_elems == 548864 and st.conv_elems == 24576
          and st.layers * st.state_elems * 4 == 65863680, "Qwen3.5-35B-A3B DeltaNet state group")
    for _, t in ipairs(q5.tensors) do
      if t.name == "model.language_model.layers.*.mlp.experts.gate_up_proj" then e = t end
    end
    check(e ~= nil and e.count == 40 * 256 and e.shape[1] == 1024 and e.shape[2] == 2048 and
          q5.block.ffn_dim == 8 * 512 + 512 and q5.intermediate == 0, "Qwen3.5-35B-A3B experts and block")
  end
  -- the text-only form (Qwen3_5ForCausalLM: flat qwen3_5_text config) drops the tower and nesting
  local q27 = presets.models["Qwen/Qwen3.6-27B"]
  if q27 then
    local ok, d = pcall(build, "qwen3_5", q27.config.text_config)
    check(ok and params(d) == 26895998464 and d.tensors[1].name:find("^model%.layers%.") ~= nil,
          "Qwen3.5 text-only config")
  end
  local m = built["meta-llama/Llama-3.2-11B-Vision"]
  if m then
    check(m.kv[2].kind == "cross" and m.kv[2].layers == 8 and m.kv[2].tokens == 4 * 1601, "mllama cross-attention KV")
  end
  local l4 = built["meta-llama/Llama-4-Maverick-17B-128E-Instruct"]
  if l4 then
    local e = 0
    for _, t in ipairs(l4.tensors) do if t.role == "expert" then e = t.count end end
    check(e == 24 * 128 and l4.intermediate == 16384, "Maverick: 24 MoE layers of 128 experts, dense 16384")
  end
end

---------------------------------------------------------------------------
-- Error messages.
local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  return not ok and e or nil
end
do
  local c = cfg_of("meta-llama/Llama-3.1-8B"); c.hidden_size = nil
  local e = err_of(build, "llama", c)
  check(e == "config: missing field 'hidden_size'", "missing hidden_size message: " .. tostring(e))
  c.hidden_size = 4096.5
  e = err_of(build, "llama", c)
  check(e == "config: field 'hidden_size' must be a positive integer, got 4096.5", "float message: " .. tostring(e))
  c.hidden_size = 0
  e = err_of(build, "llama", c)
  check(e == "config: field 'hidden_size' must be a positive integer, got 0", "zero message: " .. tostring(e))
  c.hidden_size = "4096"
  e = err_of(build, "llama", c)
  check(e == "config: field 'hidden_size' must be a positive integer, got \"4096\"", "string message: " .. tostring(e))
  local g = cfg_of("google/gemma-3-27b-it"); g.text_config.num_hidden_layers = nil
  e = err_of(build, "gemma3", g)
  check(e == "config: missing field 'num_hidden_layers'", "gemma3 nested missing field: " .. tostring(e))
  local nn = ENV.require("nn")
  check(err_of(nn.flag, { x = 1 }, "x") == "config: field 'x' must be true or false, got 1", "nn.flag message")
  check(nn.opt({ x = 3 }, "x", 5) == 3 and nn.opt({}, "x", 5) == 5, "nn.opt")
  check(nn.need({ x = 7.0 }, "x") == 7 and math.type(nn.need({ x = 7.0 }, "x")) == "integer", "nn.need converts 7.0")
end

---------------------------------------------------------------------------
-- --- architecture families A: Gemma 3n's text decoder, from the text_config of
-- google/gemma-3n-E4B-it / -E2B-it (no preset: the published checkpoints carry the vision and
-- audio towers, which are not modelled, and a preset would count them short). The counts:
-- E4B 6,866,696,688 and E2B 4,456,156,768, the 6.87B / 4.46B Ollama lists for its text-only
-- gemma3n:e4b / gemma3n:e2b (ollama/ollama#11286; rounded figures: the exact count is the
-- inventory's, checked by hand: E4B embed 537,395,200 + per-layer embeddings 2,348,810,240 +
-- per_layer_model_projection 18,350,080 + 6 AltUp projections 25,165,824 + 35 layers x
-- 112,484,944 + per_layer_projection_norm 256 + norm 2,048). KV: only the first L - num_kv_shared_layers layers cache (16 local of
-- window 512 + 4 global, 2 KV heads x 256): 2 x 20 x 2 x 256 x 2 = 40,960 bytes per token.
do
  local function g3n(L, I, shared)
    local lt = {}
    for i = 1, L do lt[i] = (i % 5 == 0) and "full_attention" or "sliding_attention" end
    return { model_type = "gemma3n_text", hidden_size = 2048, num_hidden_layers = L, intermediate_size = I,
      num_attention_heads = 8, num_key_value_heads = 2, head_dim = 256, vocab_size = 262400,
      vocab_size_per_layer_input = 262144, hidden_size_per_layer_input = 256, altup_num_inputs = 4,
      laurel_rank = 64, num_kv_shared_layers = shared, sliding_window = 512, layer_types = lt,
      max_position_embeddings = 32768 }
  end
  local a = by_type["gemma3n_text"]
  for _, c in ipairs { { "gemma-3n-E4B text", g3n(35, 16384, 15), 6866696688 },
                       { "gemma-3n-E2B text", g3n(30, 8192, 10), 4456156768 } } do
    local ok, d = pcall(a.build, c[2])
    if check(ok, c[1] .. ": build failed: " .. tostring(d)) and validate(c[1], d) then
      check(params(d) == c[3], ("%s: %d parameters, expected %d"):format(c[1], params(d), c[3]))
      check(kv_bytes(d, 2) == 40960, ("%s: KV %d bytes/token, expected 40960"):format(c[1], kv_bytes(d, 2)))
      local w = {}
      for _, g in ipairs(d.kv) do w[g.window or "full"] = (w[g.window or "full"] or 0) + g.layers end
      check(w[512] == 16 and w.full == 4, c[1] .. ": 16 local + 4 global cached layers")
    end
  end
  -- a per-layer width list (intermediate_size as the published config.json gives it)
  local c = g3n(35, nil, 15); c.intermediate_size = {}
  for i = 1, 35 do c.intermediate_size[i] = 16384 end
  local ok, d = pcall(a.build, c)
  check(ok and params(d) == 6866696688, "gemma-3n-E4B text with a per-layer intermediate_size list")
  local e = select(2, pcall(a.build, { model_type = "gemma3n", text_config = g3n(35, 16384, 15) }))
  check(type(e) == "string" and e:find("towers are not modelled", 1, true), "gemma3n (multimodal) refused: " .. tostring(e))
end

-- ---- gemma4: checkpoint bytes, tensor counts and the layer kinds (architectures/gemma4.lua)
do
  local function stored(d)  -- parameters + buffers, tensors (fused experts one per layer)
    local n, tensors = 0, 0
    for _, t in ipairs(d.tensors) do
      local p = t.count or 1
      for _, x in ipairs(t.shape) do p = p * x end
      n = n + p
      tensors = tensors + (t.role == "expert" and (t.count or 1) // 128 or (t.count or 1))
    end
    return n, tensors
  end
  local d31 = build("gemma4", cfg_of("google/gemma-4-31B-it"))
  local n, tensors = stored(d31)
  check(2 * n == 62546177752, "gemma-4-31B: safetensors payload " .. 2 * n .. " B, expected 62,546,177,752")
  check(tensors == 1188, "gemma-4-31B: " .. tensors .. " tensors, expected 1188 (832 text + 356 vision)")
  local d26 = build("gemma4", cfg_of("google/gemma-4-26B-A4B-it"))
  n, tensors = stored(d26)
  check(2 * n == 51611872412, "gemma-4-26B-A4B: index total_size " .. 2 * n .. ", expected 51,611,872,412")
  check(tensors == 1013, "gemma-4-26B-A4B: " .. tensors .. " tensors, expected 1013")
  -- its MoE block: 8 routed experts of 704 and the dense MLP of 2112 beside them (no shared expert)
  check(d26.block.ffn_dim == 2112 + 8 * 704 and d26.block.moe_dense_beside == true
        and d31.block.moe_dense_beside == nil, "gemma-4-26B-A4B: dense MLP beside the routed experts")
  -- k_eq_v: the 10 full layers have no v_proj; their k_proj is 4 heads x 512
  local v, kfull = 0, 0
  for _, t in ipairs(d31.tensors) do
    if t.name:find("v_proj.weight", 1, true) and t.name:find("language_model", 1, true) then v = v + t.count end
    if t.name:find("k_proj.weight", 1, true) and t.shape[1] == 2048 then kfull = kfull + t.count end
  end
  check(v == 50 and kfull == 10, ("gemma-4-31B: %d v_proj (50 sliding), %d 2048-row k_proj (10 full)"):format(v, kfull))
  -- E2B: the 20 KV-shared layers have no k/v projections and a double-wide MLP (12,288)
  local e2 = build("gemma4", cfg_of("google/gemma-4-E2B-it"))
  local kp, wide = 0, 0
  for _, t in ipairs(e2.tensors) do
    if t.name:find("k_proj.weight", 1, true) and t.name:find("language_model", 1, true) then kp = kp + t.count end
    if t.name:find("gate_proj.weight", 1, true) and t.shape[1] == 12288 then wide = wide + t.count end
  end
  check(kp == 15 and wide == 20 and e2.kv_shared_layers == 20, ("gemma-4-E2B: %d k_proj, %d wide MLPs"):format(kp, wide))
  -- text-only (gemma4_text, Gemma4ForCausalLM): the 31B text count, model.* names
  local tc = cfg_of("google/gemma-4-31B-it").text_config
  check(params(build("gemma4_text", tc)) == 30697345280, "gemma4_text 31B text decoder: 30,697,345,280")
  -- the newer per_layer_config form gives the full layers' shapes
  local t2 = deep_copy(tc); t2.global_head_dim = nil; t2.num_global_key_value_heads = nil
  t2.per_layer_config = {}
  for i = 5, 59, 6 do t2.per_layer_config[tostring(i)] = { head_dim = 512, num_key_value_heads = 4 } end
  check(params(build("gemma4_text", t2)) == 30697345280, "gemma4_text with per_layer_config")
  -- bad input names the field
  local b = deep_copy(tc); b.layer_types = { "sliding_attention" }
  local e = err_of(build, "gemma4_text", b)
  check(type(e) == "string" and e:find("'layer_types'", 1, true), "gemma4 layer_types length: " .. tostring(e))
  b = deep_copy(tc); b.num_kv_shared_layers = 60
  e = err_of(build, "gemma4_text", b)
  check(type(e) == "string" and e:find("'num_kv_shared_layers'", 1, true), "gemma4 num_kv_shared_layers: " .. tostring(e))
  b = deep_copy(tc); b.enable_moe_block = true
  e = err_of(build, "gemma4_text", b)
  check(type(e) == "string" and e:find("'num_experts'", 1, true), "gemma4 MoE without num_experts: " .. tostring(e))
  -- a layer_types of the wrong type is refused (it used to fall back to the default pattern)
  for _, v in ipairs { "x", 0 } do
    b = deep_copy(tc); b.layer_types = v
    e = err_of(build, "gemma4_text", b)
    check(type(e) == "string" and e:find("'layer_types'", 1, true), "gemma4 layer_types " .. tostring(v) .. ": " .. tostring(e))
  end
  b = deep_copy(tc); b.per_layer_config = "x"
  e = err_of(build, "gemma4_text", b)
  check(type(e) == "string" and e:find("'per_layer_config'", 1, true), "gemma4 per_layer_config string: " .. tostring(e))
end
-- ---- end gemma4
-- nn.layer_types, for every architecture that reads it (gpt-oss, Gemma 2 / 3, Cohere 2, EXAONE 4,
-- Llama-style sliding windows): a layer_types that is not a list is refused, not read as absent
do
  for _, v in ipairs { "x", 0, 1.5 } do
    local c = cfg_of("openai/gpt-oss-20b"); c.layer_types = v
    local e = err_of(build, "gpt_oss", c)
    check(type(e) == "string" and e:find("field 'layer_types' must be a list", 1, true) ~= nil,
      "gpt-oss layer_types " .. tostring(v) .. ": " .. tostring(e))
  end
  local c = cfg_of("openai/gpt-oss-20b"); c.layer_types = nil
  check(err_of(build, "gpt_oss", c) == nil, "gpt-oss without layer_types keeps its alternating default")
end

-- arch-families-b: InternLM 2 / 3, GLM-4-0414, ERNIE 4.5, Hunyuan dense, Seed-OSS, EXAONE 4.0.
for _, mt in ipairs { "internlm2", "internlm3", "glm4", "exaone4", "seed_oss", "hunyuan_v1_dense", "ernie4_5",
                      "ernie4_5_moe", "dots1", "bamba", "jamba", "nemotron_h", "hunyuan_v1_moe" } do
  check(by_type[mt] ~= nil, "no script for model_type " .. mt)
end
do
  local function names_of(d) local n = {} for _, t in ipairs(d.tensors) do n[t.name] = t end return n end
  local i2 = built["internlm/internlm2_5-7b-chat"]
  if check(i2 ~= nil, "internlm2_5-7b built") then
    local n = names_of(i2)
    local w = n["model.layers.*.attention.wqkv.weight"]
    check(w and w.shape[1] == (32 + 2 * 8) * 128 and w.shape[2] == 4096, "internlm2: fused wqkv {(nh + 2 nkv) d, h}")
    check(n["model.tok_embeddings.weight"] and n["output.weight"] and n["model.layers.*.feed_forward.w3.weight"],
          "internlm2: InternLM naming (tok_embeddings, output, feed_forward.w1/w3/w2)")
    check(n["model.layers.*.attention.wqkv.bias"] == nil, "internlm2_5: bias false")
  end
  local g = built["THUDM/GLM-4-9B-0414"]
  if check(g ~= nil, "GLM-4-9B-0414 built") then
    local n = names_of(g)
    check(n["model.layers.*.post_self_attn_layernorm.weight"] and n["model.layers.*.post_mlp_layernorm.weight"],
          "glm4: the extra post-norms")
    check(n["model.layers.*.mlp.gate_up_proj.weight"] and n["model.layers.*.mlp.gate_up_proj.weight"].shape[1] == 2 * 13696,
          "glm4: fused gate_up {2 I, h}")
    check(n["model.layers.*.self_attn.k_proj.bias"] and n["model.layers.*.self_attn.o_proj.bias"] == nil,
          "glm4: q/k/v bias, o_proj without")
    check(g.rotary_dim == 64, "glm4: partial RoPE over half the head")
  end
  -- EXAONE-4.0-32B: "Number of Parameters (without embeddings): 30.95B" (the model card)
  local e = built["LGAI-EXAONE/EXAONE-4.0-32B"]
  if check(e ~= nil, "EXAONE-4.0-32B built") then
    local emb = 0
    for _, t in ipairs(e.tensors) do
      if t.role == "embed" or t.role == "lm_head" then emb = emb + t.shape[1] * t.shape[2] end
    end
    local ne = counts["LGAI-EXAONE/EXAONE-4.0-32B"] - emb
    check(math.floor(ne / 1e7 + 0.5) == 3095, "EXAONE-4.0-32B: non-embedding params round to 30.95B, got " .. ne)
    check(names_of(e)["model.layers.*.input_layernorm.weight"] == nil, "exaone4: post-norms only")
    -- the same split from a "LLLG" pattern string and from layer_types
    local c = cfg_of("LGAI-EXAONE/EXAONE-4.0-32B"); c.sliding_window_pattern = "LLLG"
    local d = build("exaone4", c)
    check(d.kv[1].layers == 16 and d.kv[1].window == nil and d.kv[2].layers == 48 and d.kv[2].window == 4096,
          "exaone4: 'LLLG' pattern string")
    c.sliding_window = nil
    d = build("exaone4", c)
    check(#d.kv == 1 and d.kv[1].layers == 64 and d.kv[1].window == nil, "exaone4: no sliding_window, all global (1.2B)")
  end
  local h = built["tencent/Hunyuan-7B-Instruct"]
  if check(h ~= nil, "Hunyuan-7B built") then
    local n = names_of(h)
    check(n["model.layers.*.self_attn.query_layernorm.weight"] and n["lm_head.weight"] == nil,
          "hunyuan: query/key_layernorm, tied head")
  end
  local bm = built["ibm-ai-platform/Bamba-9B"]
  if check(bm ~= nil, "Bamba-9B built") then
    local st = bm.kv[2]
    check(st and st.kind == "mamba" and st.layers == 29 and st.state_elems == 3 * (8192 + 256) + 128 * 64 * 128
          and st.conv_elems == 3 * (8192 + 256), "Bamba-9B: 29 Mamba-2 state layers, conv 3 x 8448 + SSM 128 x 64 x 128")
    check(names_of(bm)["model.final_layernorm.weight"] ~= nil, "bamba: model.final_layernorm")
    local c = cfg_of("ibm-ai-platform/Bamba-9B"); c.attn_layer_indices = { 9, 32 }
    check(err_of(build, "bamba", c) ~= nil, "bamba: an attention index past the last layer is refused")
    c = cfg_of("ibm-ai-platform/Bamba-9B"); c.attn_layer_indices = "9,18,27"
    local e = err_of(build, "bamba", c)
    check(e ~= nil and e:find("attn_layer_indices", 1, true) ~= nil, "bamba: attn_layer_indices not a list is refused (was read as no attention layer)")
  end
  local er = built["baidu/ERNIE-4.5-21B-A3B-PT"]
  if check(er ~= nil, "ERNIE-4.5-21B-A3B built") then
    local n = names_of(er)
    check(n["model.layers.*.mlp.experts.*.gate_proj.weight"].count == 27 * 64, "ernie4_5_moe: layers 1..27 sparse")
    check(n["model.layers.*.mlp.gate_proj.weight"].count == 1, "ernie4_5_moe: layer 0 dense")
    check(n["model.layers.*.mlp.shared_experts.up_proj.weight"].shape[1] == 2 * 1536, "ernie4_5_moe: 2 shared experts fused")
    check(n["model.layers.*.mlp.moe_statics.e_score_correction_bias"].dtype == "fp32", "ernie4_5_moe: fp32 routing bias")
    -- Ernie4_5_MoeConfig (transformers configuration_ernie4_5_moe.py): moe_layer_end_index -1 is
    -- num_hidden_layers - 1, an absent moe_layer_start_index is 1; both give the released layout
    local c = cfg_of("baidu/ERNIE-4.5-21B-A3B-PT"); c.moe_layer_end_index = -1
    local ok, d = pcall(build, "ernie4_5_moe", c)
    check(ok and names_of(d)["model.layers.*.mlp.experts.*.gate_proj.weight"].count == 27 * 64,
          "ernie4_5_moe: moe_layer_end_index -1 is the last layer")
    c = cfg_of("baidu/ERNIE-4.5-21B-A3B-PT"); c.moe_layer_start_index = nil
    ok, d = pcall(build, "ernie4_5_moe", c)
    check(ok and names_of(d)["model.layers.*.mlp.gate_proj.weight"].count == 1,
          "ernie4_5_moe: moe_layer_start_index absent is 1 (layer 0 dense)")
    c = cfg_of("baidu/ERNIE-4.5-21B-A3B-PT"); c.moe_layer_end_index = -2
    check(err_of(build, "ernie4_5_moe", c) ~= nil, "ernie4_5_moe: moe_layer_end_index -2 is refused")
  end
  local dt = built["rednote-hilab/dots.llm1.inst"]
  if check(dt ~= nil, "dots.llm1 built") then
    local n = names_of(dt)
    check(n["model.layers.*.self_attn.q_norm.weight"] and n["model.layers.*.mlp.experts.*.up_proj.weight"].count == 61 * 128
          and dt.block.moe_scaled == true, "dots1: q/k norm, 61 sparse layers, routed_scaling_factor 2.5")
  end
  local nm = built["nvidia/NVIDIA-Nemotron-Nano-9B-v2"]
  if check(nm ~= nil, "Nemotron-Nano-9B-v2 built") then
    local st = nm.kv[2]
    -- d_inner 128 x 80 = 10240, conv_dim 10240 + 2 x 8 x 128 = 12288
    check(st and st.layers == 27 and st.state_elems == 3 * 12288 + 128 * 80 * 128 and st.conv_elems == 3 * 12288,
          "nemotron_h: 27 Mamba-2 layers, conv 3 x 12288 + SSM 128 x 80 x 128")
    local n = names_of(nm)
    check(n["backbone.layers.*.mixer.up_proj.weight"].count == 25 and n["backbone.layers.*.mixer.gate_proj.weight"] == nil
          and nm.block.gated == false, "nemotron_h: 25 squared-ReLU MLP layers, no gate")
    check(n["backbone.layers.*.mixer.in_proj.weight"].shape[1] == 2 * 10240 + 2 * 8 * 128 + 128, "nemotron_h: in_proj rows")
    local c = cfg_of("nvidia/NVIDIA-Nemotron-Nano-9B-v2"); c.hybrid_override_pattern = c.hybrid_override_pattern:sub(2)
    check(err_of(build, "nemotron_h", c) ~= nil, "nemotron_h: a pattern of the wrong length is refused")
  end
  local jb = built["ai21labs/AI21-Jamba-1.5-Mini"]
  if check(jb ~= nil, "Jamba-1.5-Mini built") then
    local st = jb.kv[2]
    check(st and st.layers == 28 and st.state_elems == 3 * 8192 + 8192 * 16 and st.conv_elems == 3 * 8192,
          "jamba: 28 Mamba-1 layers, conv 3 x 8192 + SSM 8192 x 16")
    local n = names_of(jb)
    check(n["model.layers.*.feed_forward.experts.*.gate_proj.weight"].count == 16 * 16
          and n["model.layers.*.feed_forward.gate_proj.weight"].count == 16, "jamba: 16 MoE + 16 dense layers")
    check(n["model.layers.*.mamba.x_proj.weight"].shape[1] == 256 + 2 * 16 and n["model.layers.*.mamba.A_log"].shape[2] == 16,
          "jamba: x_proj {dt_rank + 2 N, d_inner}, A_log {d_inner, N}")
    check(table.concat(n["model.layers.*.feed_forward.router.weight"].layer_ids, ",", 1, 3) == "1,3,5"
          and table.concat(n["model.layers.*.self_attn.q_proj.weight"].layer_ids, ",") == "4,12,20,28",
          "jamba: MoE layers placed at 1, 3, 5, ..., attention at 4, 12, 20, 28 (nn.place)")
    -- JambaConfig's default mamba_dt_rank "auto" is ceil(hidden_size / 16): 4096 / 16 = 256
    local c = cfg_of("ai21labs/AI21-Jamba-1.5-Mini"); c.mamba_dt_rank = "auto"
    local ok, d = pcall(build, "jamba", c)
    check(ok and names_of(d)["model.layers.*.mamba.x_proj.weight"].shape[1] == 256 + 2 * 16,
          "jamba: mamba_dt_rank 'auto' is ceil(hidden / 16)")
  end
  local ha = built["tencent/Hunyuan-A13B-Instruct"]
  if check(ha ~= nil, "Hunyuan-A13B built") then
    local n = names_of(ha)
    check(n["model.layers.*.mlp.gate.wg.weight"] and n["model.layers.*.mlp.shared_mlp.up_proj.weight"].shape[1] == 3072
          and ha.block.experts_per_tok == 8 and ha.block.ffn_dim == 9 * 3072, "hunyuan_v1_moe: router wg, shared_mlp, top 8")
    local c = cfg_of("tencent/Hunyuan-A13B-Instruct"); c.moe_topk[3] = 4
    check(err_of(build, "hunyuan_v1_moe", c) == "config: field 'moe_topk' differs between layers, not modelled",
          "hunyuan_v1_moe: per-layer top-k that differs is refused")
    -- an empty per-layer list (HunYuanMoEV1 indexes it by layer) and a top-k of 0 named, not defaulted
    for _, bad in ipairs { {}, 0 } do
      c = cfg_of("tencent/Hunyuan-A13B-Instruct"); c.moe_topk = bad
      local e = err_of(build, "hunyuan_v1_moe", c)
      check(e == (bad == 0 and "config: field 'moe_topk' must be a positive integer, got 0"
                           or "config: field 'moe_topk' must list one value per layer (32)"),
            "hunyuan_v1_moe: moe_topk " .. (bad == 0 and "0" or "{}") .. " is refused naming the field: " .. tostring(e))
    end
  end
  local so = built["ByteDance-Seed/Seed-OSS-36B-Instruct"]
  if check(so ~= nil, "Seed-OSS built") then
    local n = names_of(so)
    check(n["model.layers.*.self_attn.v_proj.bias"] and n["model.layers.*.self_attn.o_proj.bias"] == nil,
          "seed_oss: q/k/v bias, attention_out_bias false")
  end
end

---------------------------------------------------------------------------
-- Review (stop 19): a file read from disk takes its architecture's roles. Every preset's
-- tensors, under the concrete names a checkpoint stores ("*" -> a layer / expert index) with the
-- role the name alone gives (model_files.role, what the reader assigned before), come out of
-- model_files.with_arch_roles with the preset's role: the description is the one role table
-- (the C reader's own name -> role table, which fed nothing, is gone).
do
  local mf = ENV.require("model_files")
  local bad = {}
  for _, id in ipairs(ids) do
    local d = built[id]
    if d then
      local file = {}
      for i, t in ipairs(d.tensors) do
        local name = t.name:gsub("%*", tostring(i % 7))
        file[i] = { name = name, shape = t.shape, role = mf.role(name, t.shape) }
      end
      mf.with_arch_roles(file, d.tensors)
      for i, t in ipairs(d.tensors) do
        if file[i].role ~= (t.role or "other") and #bad < 5 then bad[#bad + 1] = id .. " " .. file[i].name end
      end
    end
  end
  check(#bad == 0, "file tensors take the preset's roles: " .. table.concat(bad, ", "))
  -- names the description does not hold fall back to the name rules (Mamba's embedding table,
  -- InternLM's tok_embeddings, CLIP's token / position tables; a diffusion transformer's
  -- x_embedder and adaLN norm*.linear are nn.Linear, not embeddings or norms)
  local R = mf.role
  check(R("backbone.embeddings.weight", { 8, 8 }) == "embed" and R("model.tok_embeddings.weight", { 8, 8 }) == "embed"
        and R("text_model.embeddings.token_embedding.weight", { 8, 8 }) == "embed"
        and R("text_model.embeddings.position_embedding.weight", { 8, 8 }) == "pos_embed"
        and R("x_embedder.weight", { 8, 8 }) == "other" and R("norm_out.linear.weight", { 8, 8 }) == "other"
        and R("transformer_blocks.0.attn.norm_q.weight", { 8 }) == "norm", "model_files.role fallback rules")
end

-- Review 2 (stop 20): the Jamba GGUF reader's period and offset select exactly the layers the file
-- has (layer i when i % period == offset, transformers JambaConfig): Jamba-1.5-Mini's 32 layers, attention
-- at 4, 12, 20, 28 (period 8, offset 4) and experts on the odd layers (2 / 1); one attention layer is
-- period L (ids {4} of 16 is not 4, 9, 14); a set no period / offset gives is an error naming it
do
  local mf = ENV.require("model_files")
  local p, o = mf.period_of("f.gguf", { 4, 12, 20, 28 }, 32, "attention")
  check(p == 8 and o == 4, "jamba reader: Jamba-1.5-Mini's attention layers read as period 8, offset 4")
  local odd = {}
  for i = 1, 31, 2 do odd[#odd + 1] = i end
  p, o = mf.period_of("f.gguf", odd, 32, "expert")
  check(p == 2 and o == 1, "jamba reader: the odd expert layers read as period 2, offset 1")
  p, o = mf.period_of("f.gguf", { 4 }, 16, "attention")
  check(p == 16 and o == 4, "jamba reader: one attention layer of 16 is period 16, offset 4 (not 5 / 4: 4, 9, 14)")
  local ok, err = pcall(mf.period_of, "f.gguf", { 3, 5, 7 }, 8, "expert")
  check(not ok and tostring(err):find("the expert layers (3, 5, 7 of 8) are not every 2-th layer from 1", 1, true) ~= nil,
    "jamba reader: experts on 3, 5, 7 of 8 (period 2 / offset 1 would route layer 1 too) are refused: " .. tostring(err))
  ok, err = pcall(mf.period_of, "f.gguf", { 1, 3, 6 }, 8, "attention")
  check(not ok and tostring(err):find("attn_layer_period", 1, true) ~= nil, "jamba reader: uneven attention layers are refused")
  -- 4, 12, 20, 28 of 40 layers: period 8 / offset 4 would make layer 36 attention too
  ok = pcall(mf.period_of, "f.gguf", { 4, 12, 20, 28 }, 40, "attention")
  check(not ok, "jamba reader: attention on 4, 12, 20, 28 of 40 layers (not 36) is refused")
end

-- ---- arch-families-c: Nemotron 3 ('E' MoE layers of nemotron_h)
do
  local id = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
  local d = build("nemotron_h", cfg_of(id))
  local st = d.kv[2]
  -- Mamba-2 state per layer: conv (4 - 1) x (4096 + 2 x 8 x 128) + 64 heads x 64 x 128
  check(st.kind == "mamba" and st.layers == 23 and st.conv_elems == 3 * 6144
        and st.state_elems == 3 * 6144 + 64 * 64 * 128, "Nemotron-3-Nano Mamba-2 state group")
  check(d.block.experts == 128 and d.block.experts_per_tok == 6 and d.block.ffn_dim == 6 * 1856 + 3712
        and d.block.expert_ffn == 1856 and d.block.gated == false and d.intermediate == 0, "Nemotron-3-Nano block")
  local names = {}
  for _, t in ipairs(d.tensors) do names[t.name] = t end
  local up = names["backbone.layers.*.mixer.experts.*.up_proj.weight"]
  check(up and up.count == 23 * 128 and up.shape[1] == 1856 and up.shape[2] == 2688 and up.role == "expert",
        "Nemotron-3-Nano routed experts: non-gated up_proj {1856, 2688}")
  local b = names["backbone.layers.*.mixer.gate.e_score_correction_bias"]
  check(b and b.dtype == "fp32" and b.count == 23, "Nemotron-3-Nano router bias in fp32")
  check(up and up.layer_ids and up.layer_ids[1] == 1 and up.layer_ids[23] == 51, "Nemotron-3-Nano MoE layers placed")
  -- the list form (transformers layers_block_type, legacy names) builds the same model
  local c = cfg_of(id)
  local map = { M = "mamba", E = "moe", ["*"] = "attention" }
  c.layers_block_type = {}
  for i = 1, #c.hybrid_override_pattern do c.layers_block_type[i] = map[c.hybrid_override_pattern:sub(i, i)] end
  c.hybrid_override_pattern = nil
  check(params(build("nemotron_h", c)) == 31577940288, "Nemotron-3-Nano from layers_block_type")
  c.layers_block_type[3] = "conv"
  local ok, err = pcall(build, "nemotron_h", c)
  check(not ok and tostring(err):find("layers_block_type", 1, true), "bad layers_block_type entry named")
  c = cfg_of(id); c.n_routed_experts = nil
  ok, err = pcall(build, "nemotron_h", c)
  check(not ok and tostring(err):find("n_routed_experts", 1, true), "E layers need n_routed_experts")
  -- a latent MoE (moe_latent_size: experts at the latent width between fc1/fc2_latent_proj)
  c = cfg_of(id); c.moe_latent_size = 1024
  local lat = build("nemotron_h", c)
  local ln = {}
  for _, t in ipairs(lat.tensors) do ln[t.name] = t end
  check(ln["backbone.layers.*.mixer.experts.*.up_proj.weight"].shape[2] == 1024
        and ln["backbone.layers.*.mixer.fc1_latent_proj.weight"].shape[1] == 1024, "latent MoE widths")
end
-- ---- arch-families-c: Kimi Linear
do
  local id = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
  local d = build("kimi_linear", cfg_of(id))
  local st = d.kv[2]
  -- KDA state per layer: q, k, v conv windows 3 x (4 - 1) x 4096 + the recurrent 32 x 128 x 128
  check(st.kind == "mamba" and st.layers == 20 and st.conv_elems == 3 * 3 * 4096
        and st.state_elems == 3 * 3 * 4096 + 32 * 128 * 128, "Kimi-Linear KDA state group")
  check(d.kv[1].mla and d.kv[1].layers == 7 and d.kv[1].k_dim == 576 and d.kv[1].v_dim == 0, "Kimi-Linear MLA group")
  check(d.rope_rows == 0 and d.block.experts == 256 and d.block.experts_per_tok == 8 and d.block.ffn_dim == 9 * 1024
        and d.block.dense_ffn == 9216 and d.block.moe_norm == true, "Kimi-Linear block")
  local mla_q
  for _, t in ipairs(d.tensors) do
    if t.name == "model.layers.*.self_attn.q_proj.weight" and t.shape[1] == 32 * 192 then mla_q = t end
  end
  check(mla_q and mla_q.count == 7 and mla_q.layer_ids[1] == 3 and mla_q.layer_ids[7] == 26,
        "Kimi-Linear MLA layers at 0-based 3, 7, ..., 26 (1-based full_attn_layers)")
  -- bad layer lists are refused, naming the field
  local c = cfg_of(id); c.linear_attn_config.kda_layers[1] = 4
  local ok, err = pcall(build, "kimi_linear", c)
  check(not ok and tostring(err):find("kda_layers", 1, true), "Kimi-Linear: a layer in both lists")
  c = cfg_of(id); c.linear_attn_config.full_attn_layers = { 4, 8, 99 }
  ok, err = pcall(build, "kimi_linear", c)
  check(not ok and tostring(err):find("full_attn_layers", 1, true), "Kimi-Linear: a layer number out of range")
  c = cfg_of(id); c.q_lora_rank = 1536
  ok, err = pcall(build, "kimi_linear", c)
  check(not ok and tostring(err):find("q_lora_rank", 1, true), "Kimi-Linear: q_lora_rank refused")
  -- without kda_layers the KDA layers are the others
  c = cfg_of(id); c.linear_attn_config.kda_layers = nil
  check(params(build("kimi_linear", c)) == 49122681728, "Kimi-Linear: kda_layers derived from full_attn_layers")
end
-- ---- arch-moe2: MiniCPM3's per-runtime layouts and its refusals
do
  local id = "openbmb/MiniCPM3-4B"
  local d = build("minicpm3", cfg_of(id))
  local g = d.kv[1]
  check(g.mla and g.kv_heads == 1 and g.k_dim == 288 and g.v_dim == 0, "MiniCPM3: latent group (SGLang)")
  check(g.expanded_heads == 40 and g.expanded_k_dim == 96 and g.expanded_v_dim == 64
        and #g.expanded_by == 2 and g.expanded_by[1] == "vllm" and g.expanded_by[2] == "llamacpp",
        "MiniCPM3: per-head K 96 / V 64 for transformers, vLLM and llama.cpp")
  local names = {}
  for _, t in ipairs(d.tensors) do names[t.name] = t end
  check(names["model.layers.*.self_attn.kv_b_proj.weight"].shape[1] == 40 * 128
        and names["model.layers.*.self_attn.o_proj.weight"].shape[2] == 40 * 64 and names["lm_head.weight"] == nil,
        "MiniCPM3: kv_b_proj {40 x (64 + 64), 256}, o_proj {2560, 40 x 64}, tied")
  local c = cfg_of(id); c.tie_word_embeddings = false
  check(params(build("minicpm3", c)) == 4073875968 + 73448 * 2560, "MiniCPM3: an untied lm_head")
  c = cfg_of(id); c.kv_lora_rank = nil
  local ok, err = pcall(build, "minicpm3", c)
  check(not ok and tostring(err):find("kv_lora_rank", 1, true), "MiniCPM3: a missing kv_lora_rank names the field")
  c = cfg_of(id); c.num_attention_heads = 48
  ok, err = pcall(build, "minicpm3", c)
  check(not ok and tostring(err):find("v_head_dim", 1, true), "MiniCPM3: hidden not divisible by heads needs v_head_dim")
end
-- ---- arch-moe2: AFMoE (Trinity)
do
  local id = "arcee-ai/Trinity-Mini"
  local d = build("afmoe", cfg_of(id))
  local names = {}
  for _, t in ipairs(d.tensors) do names[t.name] = t end
  check(names["model.layers.*.self_attn.gate_proj.weight"].shape[1] == 32 * 128
        and names["model.layers.*.self_attn.gate_proj.weight"].count == 32, "AFMoE: the attention output gate")
  check(names["model.layers.*.mlp.gate_proj.weight"].count == 2 and names["model.layers.*.mlp.router.gate.weight"].count == 30
        and names["model.layers.*.mlp.experts.*.up_proj.weight"].count == 30 * 128
        and names["model.layers.*.mlp.shared_experts.down_proj.weight"].shape[2] == 1024
        and names["model.layers.*.mlp.expert_bias"].dtype == "fp32", "AFMoE: 2 dense layers, 30 MoE layers")
  check(d.block.experts == 128 and d.block.experts_per_tok == 8 and d.block.ffn_dim == 9 * 1024
        and d.block.dense_ffn == 6144 and d.block.moe_norm == true and d.block.moe_scaled == true, "AFMoE block")
  -- without layer_types: every 4th layer global (global_attn_every_n_layers), as AfmoeConfig derives them
  local c = cfg_of(id); c.layer_types = nil
  local w = {}
  for _, g in ipairs(build("afmoe", c).kv) do w[g.window or "full"] = g.layers end
  check(w[2048] == 24 and w.full == 8, "AFMoE: layer types from global_attn_every_n_layers")
  c = cfg_of(id); c.sliding_window = nil
  local ok, err = pcall(build, "afmoe", c)
  check(not ok and tostring(err):find("sliding_window", 1, true), "AFMoE: a missing sliding_window names the field")
  c = cfg_of(id); c.num_dense_layers = 40
  ok, err = pcall(build, "afmoe", c)
  check(not ok and tostring(err):find("num_dense_layers", 1, true), "AFMoE: num_dense_layers beyond the layers")
end
-- ---- arch-moe2: LongCat-Flash
do
  local id = "meituan-longcat/LongCat-Flash-Chat"
  local d = build("longcat_flash", cfg_of(id))
  local names = {}
  for _, t in ipairs(d.tensors) do names[t.name] = t end
  check(d.layers == 56 and d.kv[1].layers == 56 and d.kv[1].k_dim == 576 and d.kv[1].expanded_heads == 64,
        "LongCat-Flash: two MLA blocks a layer, 56 caches")
  local r = names["model.layers.*.mlp.router.classifier.weight"]
  check(r.shape[1] == 768 and r.dtype == "fp32" and r.count == 28, "LongCat-Flash: router over 512 + 256 zero experts, fp32")
  check(names["model.layers.*.mlp.experts.*.gate_proj.weight"].count == 28 * 512, "LongCat-Flash: zero experts hold no weights")
  local a1 = names["model.layers.*.self_attn.1.kv_b_proj.weight"]
  check(a1.layer_ids[1] == 1 and a1.layer_ids[28] == 55 and r.layer_ids[2] == 2, "LongCat-Flash: block 2i + b placement")
  local experts, dense = 0, 0
  for _, t in ipairs(d.tensors) do
    local n = t.count or 1
    for _, x in ipairs(t.shape) do n = n * x end
    if t.role == "expert" then experts = experts + n end
  end
  dense = params(d) - experts - 131072 * 6144
  check(dense == 18693794816 and dense + 28 * 12 * 3 * 6144 * 2048 == 31377370112, "LongCat-Flash: activated range")
  local c = cfg_of(id); c.expert_ffn_hidden_size = nil
  local ok, err = pcall(build, "longcat_flash", c)
  check(not ok and tostring(err):find("expert_ffn_hidden_size", 1, true), "LongCat-Flash: a missing expert_ffn_hidden_size names the field")
end
-- ---- gemma4: a malformed audio tower config is refused, naming the field
do
  local c = cfg_of("google/gemma-4-E2B-it")
  c.audio_config = deep_copy(c.audio_config); c.audio_config.subsampling_conv_channels = { 128 }
  local ok, err = pcall(build, "gemma4", c)
  check(not ok and tostring(err):find("audio_config.subsampling_conv_channels", 1, true),
        "Gemma 4: subsampling_conv_channels of one entry names the field: " .. tostring(err))
end
-- ---- arch-families-c: MiniMax lightning attention
do
  local id = "MiniMaxAI/MiniMax-M1-80k"
  local d = build("minimax", cfg_of(id))
  local st = d.kv[2]
  -- a lightning layer's state: 64 heads x 128 x 128, all in mamba_cache_dtype (conv_elems = the whole)
  check(st.kind == "mamba" and st.layers == 70 and st.state_elems == 64 * 128 * 128 and st.conv_elems == st.state_elems,
        "MiniMax-M1 lightning state group")
  check(d.kv[1].layers == 10 and d.kv[1].kv_heads == 8 and d.rotary_dim == 64 and d.rope_rows == 0
        and d.block.experts == 32 and d.block.experts_per_tok == 2, "MiniMax-M1 attention group and block")
  -- transformers' layer_types form builds the same model
  local c = cfg_of(id)
  c.layer_types = {}
  for i, v in ipairs(c.attn_type_list) do c.layer_types[i] = v == 1 and "full_attention" or "linear_attention" end
  c.attn_type_list = nil
  check(params(build("minimax", c)) == 456089655296, "MiniMax-M1 from layer_types")
  c = cfg_of(id); c.attn_type_list[3] = 2
  local ok, err = pcall(build, "minimax", c)
  check(not ok and tostring(err):find("attn_type_list", 1, true), "MiniMax: a bad attn_type_list entry named")
  c = cfg_of(id); c.shared_intermediate_size = 9216
  ok, err = pcall(build, "minimax", c)
  check(not ok and tostring(err):find("shared_intermediate_size", 1, true), "MiniMax: shared experts refused")
end

-- ---- arch-moe: DBRX's nested config, stacked experts and refused fields
do
  local id = "databricks/dbrx-instruct"
  local d = built[id]
  if check(d ~= nil, "dbrx-instruct built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    local qkv = n["transformer.blocks.*.norm_attn_norm.attn.Wqkv.weight"]
    check(qkv and qkv.shape[1] == 6144 + 2 * 8 * 128 and qkv.shape[2] == 6144 and qkv.count == 40
          and n["transformer.blocks.*.norm_attn_norm.attn.Wqkv.bias"] == nil, "dbrx: fused Wqkv {8192, 6144}, no bias")
    check(n["transformer.blocks.*.norm_attn_norm.norm_1.bias"] == nil and n["transformer.norm_f.weight"] ~= nil
          and d.block.norm == "layer", "dbrx: LayerNorms without bias")
    local w1, w2 = n["transformer.blocks.*.ffn.experts.mlp.w1"], n["transformer.blocks.*.ffn.experts.mlp.w2"]
    check(w1 and w1.count == 40 * 16 and w1.shape[1] == 10752 and w1.shape[2] == 6144 and w1.role == "expert"
          and w1.layout == "out_in" and w2 and w2.layout == "in_out" and w2.shape[1] == 10752,
          "dbrx: experts stacked per layer, listed per expert {10752, 6144}")
    check(d.block.experts == 16 and d.block.experts_per_tok == 4 and d.block.ffn_dim == 4 * 10752
          and d.block.moe_norm == true and d.max_position == 32768 and d.heads == 48 and d.kv_heads == 8
          and d.head_dim == 128, "dbrx: block and shape")
    -- active parameters: everything but 12 of the 16 experts (the card's "36B active")
    local active = 0
    for _, t in ipairs(d.tensors) do
      local p = t.count or 1
      for _, x in ipairs(t.shape) do p = p * x end
      if t.role == "expert" then p = p // 16 * 4 end
      active = active + p
    end
    check(active == 36469708800, "dbrx: 36,469,708,800 active parameters, got " .. active)
    -- quantization reads w1 / v1 {out, in} and w2 {in, out}; all three are fused experts
    local Q = ENV.require("quant")
    local o1, i1 = Q.dims(w1, d)
    local o2, i2 = Q.dims(w2, d)
    check(o1 == 10752 and i1 == 6144 and o2 == 6144 and i2 == 10752 and Q.is_fused_expert(w1) and Q.is_fused_expert(w2),
          "dbrx: expert matrices' out / in for quantization")
  end
  -- bad configs name the nested field
  local c = cfg_of(id); c.ffn_config.moe_top_k = nil
  check(err_of(build, "dbrx", c) == "config: missing field 'ffn_config.moe_top_k'", "dbrx: missing moe_top_k named")
  c = cfg_of(id); c.attn_config = nil
  check(err_of(build, "dbrx", c) == "config: missing field 'attn_config' (DBRX nests its sizes there)", "dbrx: missing attn_config")
  c = cfg_of(id); c.attn_config.kv_n_heads = 7
  check(err_of(build, "dbrx", c) == "config: field 'attn_config.kv_n_heads' (7) must divide n_heads (48)", "dbrx: kv heads not dividing")
  c = cfg_of(id); c.ffn_config.moe_num_experts = "16"
  check(err_of(build, "dbrx", c) == "config: field 'ffn_config.moe_num_experts' must be a positive integer, got \"16\"",
        "dbrx: a string expert count named: " .. tostring(err_of(build, "dbrx", c)))
  c = cfg_of(id); c.ffn_config.moe_normalize_expert_weights = nil
  check(build("dbrx", c).block.moe_norm == true, "dbrx: moe_normalize_expert_weights absent is DbrxFFNConfig's 1")
end

-- ---- arch-moe: Ling 2.0's layout, active parameters and refused fields
do
  local id = "inclusionAI/Ling-mini-2.0"
  local d = built[id]
  if check(d ~= nil, "Ling-mini-2.0 built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    local qkv = n["model.layers.*.attention.query_key_value.weight"]
    check(qkv and qkv.shape[1] == (16 + 2 * 4) * 128 and qkv.shape[2] == 2048 and qkv.count == 20
          and n["model.layers.*.attention.query_layernorm.weight"].shape[1] == 128
          and n["model.word_embeddings.weight"] ~= nil, "bailing_moe: fused query_key_value, q/k norms, word_embeddings")
    check(n["model.layers.*.mlp.gate_proj.weight"].count == 1 and n["model.layers.*.mlp.experts.*.up_proj.weight"].count == 19 * 256
          and n["model.layers.*.mlp.shared_experts.up_proj.weight"].shape[1] == 512
          and n["model.layers.*.mlp.gate.expert_bias"].count == 19, "bailing_moe: layer 0 dense, 19 MoE layers, one shared expert, expert_bias")
    check(d.rotary_dim == 64 and d.block.experts == 256 and d.block.experts_per_tok == 8 and d.block.ffn_dim == 9 * 512
          and d.block.expert_ffn == 512 and d.block.dense_ffn == 5120 and d.block.moe_norm and d.block.moe_scaled,
          "bailing_moe: half RoPE, block, routed_scaling_factor 2.5")
    local active, embed = 0, 0
    for _, t in ipairs(d.tensors) do
      local p = t.count or 1
      for _, x in ipairs(t.shape) do p = p * x end
      if t.role == "expert" then p = p // 256 * 8 end
      if t.role == "embed" or t.role == "lm_head" then embed = embed + p end
      active = active + p
    end
    check(active == 1432973056 and active - embed == 789147392,
          ("Ling-mini-2.0: 1.43B active, 789M without embeddings (got %d, %d)"):format(active, active - embed))
  end
  -- the shared experts' own width, when the config gives it
  local c = cfg_of(id); c.moe_shared_expert_intermediate_size = 1024
  local n = {}
  for _, t in ipairs(build("bailing_moe_v2", c).tensors) do n[t.name] = t end
  check(n["model.layers.*.mlp.shared_experts.up_proj.weight"].shape[1] == 1024, "bailing_moe: moe_shared_expert_intermediate_size")
  c = cfg_of(id); c.num_experts = nil
  check(err_of(build, "bailing_moe_v2", c) == "config: missing field 'num_experts'", "bailing_moe: missing num_experts named")
  c = cfg_of(id); c.n_group = 7
  check(err_of(build, "bailing_moe_v2", c) == "config: field 'n_group' (7) must divide num_experts (256)", "bailing_moe: n_group not dividing")
  c = cfg_of(id); c.first_k_dense_replace = 21
  check(err_of(build, "bailing_moe_v2", c) == "config: field 'first_k_dense_replace' (21) exceeds num_hidden_layers (20)",
        "bailing_moe: too many dense layers")
end

-- ---- arch-mamba: the state groups and bad configs
do
  local cb = built["mistralai/Mamba-Codestral-7B-v0.1"]
  if check(cb ~= nil, "Mamba-Codestral built") then
    check(cb.heads == 0 and cb.kv_heads == 0 and cb.head_dim == 0 and #cb.kv == 1, "mamba2: attention-free, one kv group")
    local g = cb.kv[1]
    -- conv window (4 - 1) x (8192 + 2 x 8 x 128) + SSM 128 heads x 64 x 128 (vLLM mamba2_state_shape)
    check(g.kind == "mamba" and g.layers == 64 and g.conv_elems == 30720 and g.state_elems == 30720 + 1048576,
          "mamba2: state group of 64 layers, 30,720 + 1,048,576 elements")
  end
  local fm = built["tiiuae/falcon-mamba-7b"]
  if check(fm ~= nil, "falcon-mamba built") then
    local g = fm.kv[1]
    check(g.layers == 64 and g.conv_elems == 3 * 8192 and g.state_elems == 3 * 8192 + 8192 * 16,
          "falcon_mamba: d_inner 8192 (intermediate_size, not expand 16 x 4096), state 16")
  end
  local function refused(id, edit, field)
    local c = cfg_of(id); edit(c)
    local ok, err = pcall(build, "mamba", c)
    check(not ok and tostring(err):find(field, 1, true), id .. ": a bad config names '" .. field .. "' (" .. tostring(err) .. ")")
  end
  refused("mistralai/Mamba-Codestral-7B-v0.1", function(c) c.state_size = nil end, "state_size")
  refused("mistralai/Mamba-Codestral-7B-v0.1", function(c) c.num_heads = nil end, "num_heads")
  refused("mistralai/Mamba-Codestral-7B-v0.1", function(c) c.num_hidden_layers = 0 end, "num_hidden_layers")
  refused("state-spaces/mamba-2.8b-hf", function(c) c.state_size = nil end, "state_size")
  refused("state-spaces/mamba-2.8b-hf", function(c) c.time_step_rank = 0 end, "time_step_rank")
  refused("tiiuae/falcon-mamba-7b", function(c) c.num_hidden_layers = 0 end, "num_hidden_layers")
  -- time_step_rank "auto" is ceil(hidden / 16) (MambaConfig): 160 for hidden 2560, the stored value
  local c = cfg_of("state-spaces/mamba-2.8b-hf"); c.time_step_rank = "auto"
  check(params(build("mamba", c)) == 2768345600, "mamba: time_step_rank auto = ceil(2560 / 16)")
  -- without intermediate_size, expand x hidden
  c = cfg_of("state-spaces/mamba-2.8b-hf"); c.intermediate_size = nil
  check(params(build("mamba", c)) == 2768345600, "mamba: d_inner = expand x hidden without intermediate_size")
end

---------------------------------------------------------------------------
-- Report every preset's count (for humans), then the summary line.
-- DeepSeek-V3.2 (deepseek_v32): the indexer per layer, replicated on tensor-parallel ranks (vLLM's
-- ReplicatedLinear: role "other"), its key cache a kv group of 132 fixed bytes beside the MLA latent
-- (656 B in vLLM's fp8_ds_mla layout), and errors naming the field.
do
  local d = built["deepseek-ai/DeepSeek-V3.2-Exp"]
  if check(d ~= nil, "DeepSeek-V3.2-Exp built") then
    local function find(name) for _, t in ipairs(d.tensors) do if t.name == name then return t end end end
    local q, k = find("model.layers.*.self_attn.indexer.wq_b.weight"), find("model.layers.*.self_attn.indexer.wk.weight")
    local w, nb = find("model.layers.*.self_attn.indexer.weights_proj.weight"), find("model.layers.*.self_attn.indexer.k_norm.bias")
    check(q and q.shape[1] == 8192 and q.shape[2] == 1536 and q.count == 61 and q.role == "other", "V3.2 indexer wq_b {8192, 1536} x 61, replicated")
    check(k and k.shape[1] == 128 and k.shape[2] == 7168 and w and w.shape[1] == 64 and nb and nb.shape[1] == 128, "V3.2 indexer wk, weights_proj, k_norm bias")
    check(#d.kv == 2 and d.kv[1].mla and d.kv[1].k_dim == 576 and d.kv[1].fp8_bytes == 656
          and d.kv[2].bytes == 132 and d.kv[2].layers == 61, "V3.2 kv: MLA latent (fp8_ds_mla 656 B) + indexer keys 132 B")
    check(counts["deepseek-ai/DeepSeek-V3.2-Exp"] - counts["deepseek-ai/DeepSeek-V3"] == 61 * 13959424, "V3.2 = V3 + 61 indexers")
    check(presets.aliases["deepseek-ai/DeepSeek-V3.2"] == "deepseek-ai/DeepSeek-V3.2-Exp", "DeepSeek-V3.2 alias")
    local c = cfg_of("deepseek-ai/DeepSeek-V3.2-Exp"); c.index_head_dim = nil
    local ok, err = pcall(build, "deepseek_v32", c)
    check(not ok and tostring(err):find("index_head_dim", 1, true), "V3.2 without index_head_dim names the field: " .. tostring(err))
    c = cfg_of("deepseek-ai/DeepSeek-V3.2-Exp"); c.index_head_dim = 100
    ok, err = pcall(build, "deepseek_v32", c)
    check(not ok and tostring(err):find("index_head_dim", 1, true), "V3.2 index_head_dim not a multiple of 128: " .. tostring(err))
    c = cfg_of("deepseek-ai/DeepSeek-V3.2-Exp"); c.q_lora_rank = nil
    ok, err = pcall(build, "deepseek_v32", c)
    check(not ok and tostring(err):find("q_lora_rank", 1, true), "V3.2 without q_lora_rank names the field: " .. tostring(err))
  end
end

-- GLM-5 (model_type glm_moe_dsa, GlmMoeDsaForCausalLM): vLLM serves it with deepseek_v2.py's class
-- (registry "GlmMoeDsaForCausalLM": ("deepseek_v2", "GlmMoeDsaForCausalLM"), a DeepseekV2ForCausalLM
-- subclass), the same MLA + indexer. Shape as public GLM-5 run scripts quote it (no copy of the Hub
-- config.json was found, so no preset): 78 layers, hidden 6144, 64 heads, q_lora 2048, qk_nope 192,
-- v_head_dim 256, index_n_heads 32, vocab 154880. 743,911,218,432 without the MTP layer: the
-- published "744B" total (rounded; whether it counts the MTP layer is not known).
do
  local c = { model_type = "glm_moe_dsa", vocab_size = 154880, hidden_size = 6144, intermediate_size = 12288,
    moe_intermediate_size = 2048, num_hidden_layers = 78, first_k_dense_replace = 3, num_attention_heads = 64,
    num_key_value_heads = 64, n_routed_experts = 256, n_shared_experts = 1, num_experts_per_tok = 8,
    q_lora_rank = 2048, kv_lora_rank = 512, qk_nope_head_dim = 192, qk_rope_head_dim = 64, v_head_dim = 256,
    index_n_heads = 32, index_head_dim = 128, index_topk = 2048, max_position_embeddings = 202752 }
  local ok, d = pcall(build, "glm_moe_dsa", c)
  if check(ok, "GLM-5 builds: " .. tostring(d)) then
    local n = params(d)
    check(n == 743911218432 and (n + 500000000) // 1000000000 == 744, "GLM-5 count " .. n .. " (published 744B)")
    check(#d.kv == 2 and d.kv[1].fp8_bytes == 656 and d.kv[2].bytes == 132 and d.kv[2].layers == 78, "GLM-5 kv: latent + indexer keys")
    -- transformers (GlmMoeDsaAttention.forward) caches K 64 heads x (192 + 64), V 64 x 256, and
    -- the indexer's keys {seq, 128} in the model dtype (GlmMoeDsaIndexer._cached_keys)
    check(d.kv[1].expanded_heads == 64 and d.kv[1].expanded_k_dim == 256 and d.kv[1].expanded_v_dim == 256
          and d.kv[2].expanded_heads == 1 and d.kv[2].expanded_k_dim == 128 and d.kv[2].expanded_v_dim == 0,
          "GLM-5 transformers cache layout: expanded K/V per head, indexer keys 128 wide")
  end
end

-- transformers' DeepSeek-V2 / V3 attention caches up-projected K/V per head (src/infer.c
-- tf_cache_layout): DeepSeek-V2-Lite (16 heads, qk_nope 128, rope 64, v 128) and DeepSeek-V3
-- (128 heads, same head widths); Kimi Linear's MLA layers cache the latent itself in transformers
-- (KimiLinearAttention: past_key_values.update(kv_nope, k_rot)), so no expanded layout
do
  for id, heads in pairs({ ["deepseek-ai/DeepSeek-V2-Lite"] = 16, ["deepseek-ai/DeepSeek-V3"] = 128 }) do
    local d = built[id]
    if check(d ~= nil, id .. " built") then
      local g = d.kv[1]
      check(#d.kv == 1 and g.k_dim == 576 and g.expanded_heads == heads and g.expanded_k_dim == 192 and g.expanded_v_dim == 128,
            id .. ": latent 576 for the engines, " .. heads .. " x (192 + 128) for transformers")
    end
  end
  for id, d in pairs(built) do
    if d.arch == "kimi_linear" then
      for _, g in ipairs(d.kv) do check(g.expanded_heads == nil, id .. ": Kimi Linear keeps the latent under transformers") end
    end
  end
end

-- arch-dense: OLMo 3 is OLMo 2's tensors with Olmo3Config's sliding layers
do
  local d = built["allenai/Olmo-3-1025-7B"]
  if check(d ~= nil, "Olmo-3-1025-7B built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["model.layers.*.self_attn.q_norm.weight"].shape[1] == 32 * 128 and n["model.layers.*.input_layernorm.weight"] == nil
          and n["model.layers.*.post_feedforward_layernorm.weight"] ~= nil, "olmo3: whole-projection q norm, post-norms only")
    -- without layer_types, Olmo3Config.__post_init__'s default: layer i global when (i + 1) % 4 == 0
    local c = cfg_of("allenai/Olmo-3-1125-32B"); c.layer_types = nil
    local k = build("olmo3", c).kv
    check(#k == 2 and k[1].window == nil and k[1].layers == 16 and k[2].window == 4096 and k[2].layers == 48,
          "olmo3: default 3:1 pattern without layer_types")
    -- without sliding_window, Olmo3Config's default 4096
    c.sliding_window = nil
    k = build("olmo3", c).kv
    check(k[2] and k[2].window == 4096, "olmo3: sliding_window defaults to 4096")
    c = cfg_of("allenai/Olmo-3-1125-32B"); c.layer_types[64] = nil
    check(err_of(build, "olmo3", c) == "config: field 'layer_types' has 63 entries, expected 64",
          "olmo3: a short layer_types is refused naming the field")
    -- OLMo 2 stays global everywhere whatever sliding_window says
    c = cfg_of("allenai/OLMo-2-1124-7B"); c.sliding_window = 4096
    k = build("olmo2", c).kv
    check(#k == 1 and k[1].window == nil, "olmo2: no sliding window")
  end
  -- an "olmo2" GGUF with attention.sliding_window is an OLMo 3 (llama.cpp's olmo2 hparams: pattern 4)
  local ga = ENV.require("model_files").gguf_arch.olmo2
  check(ga({ ["attention.sliding_window"] = 4096 }) == "olmo3" and ga({}) == "olmo2"
        and ga({ ["attention.sliding_window"] = 0 }) == "olmo2", "gguf: olmo2 with a window reads as olmo3")
end

-- arch-dense: Apertus's non-gated xIELU MLP and its stored scalars
do
  local d = built["swiss-ai/Apertus-8B-2509"]
  if check(d ~= nil, "Apertus-8B built") then
    local n, stored = {}, 0
    for _, t in ipairs(d.tensors) do
      n[t.name] = t
      local e = t.count or 1
      for _, x in ipairs(t.shape) do e = e * x end
      stored = stored + e
    end
    check(stored == 8053338240, "apertus: the checkpoint's 8,053,338,240 stored values (buffers in), got " .. stored)
    check(n["model.layers.*.mlp.gate_proj.weight"] == nil and n["model.layers.*.mlp.up_proj.weight"].shape[1] == 21504
          and d.block.gated == false and d.block.ffn_dim == 21504, "apertus: up/down only, not gated")
    check(n["model.layers.*.self_attn.q_norm.weight"].shape[1] == 128 and n["model.layers.*.attention_layernorm.weight"]
          and n["model.layers.*.mlp.act_fn.beta"].buffer == true, "apertus: per-head q norm, renamed norms, beta a buffer")
    -- llama.cpp's count of the 70B GGUF: no xIELU tensors, one rope_freqs {64}
    check(counts["swiss-ai/Apertus-70B-2509"] - 2 * 80 + 64 == 70599864384, "apertus 70B: llama.cpp's n_params")
    local c = cfg_of("swiss-ai/Apertus-8B-2509"); c.intermediate_size = nil
    check(err_of(build, "apertus", c) == "config: missing field 'intermediate_size'",
          "apertus: a missing intermediate_size is refused naming the field: " .. tostring(err_of(build, "apertus", c)))
  end
end

-- arch-dense: Arcee AFM's ReLU^2 MLP has no gate
do
  local d = built["arcee-ai/AFM-4.5B"]
  if check(d ~= nil, "AFM-4.5B built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["model.layers.*.mlp.gate_proj.weight"] == nil and n["model.layers.*.mlp.down_proj.weight"].shape[2] == 18432
          and d.block.gated == false and n["model.layers.*.self_attn.q_proj.weight"].shape[1] == 20 * 128,
          "arcee: up/down only, head_dim 128 x 20 heads")
    local c = cfg_of("arcee-ai/AFM-4.5B"); c.num_hidden_layers = "36"
    local e = err_of(build, "arcee", c)
    check(type(e) == "string" and e:find("'num_hidden_layers'", 1, true) ~= nil, "arcee: a string layer count is refused naming the field: " .. tostring(e))
  end
end

-- arch-dense: Nemotron's LayerNorm1P with bias, no gate, partial RoPE (default 0.5), head_dim apart from hidden
do
  local d = built["nvidia/Minitron-4B-Base"]
  if check(d ~= nil, "Minitron-4B built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["model.layers.*.input_layernorm.bias"] and n["model.norm.bias"] and n["model.layers.*.mlp.gate_proj.weight"] == nil
          and d.block.norm == "layer" and d.block.gated == false, "nemotron: LayerNorm1P with bias, up/down only")
    check(d.rotary_dim == 64, "nemotron: partial_rotary_factor 0.5 of head_dim 128")
    local c = cfg_of("nvidia/Minitron-4B-Base"); c.partial_rotary_factor = nil
    check(build("nemotron", c).rotary_dim == 64, "nemotron: partial_rotary_factor defaults to 0.5 (NemotronConfig)")
    -- Minitron-8B's shape: 48 heads of 128 on a 4096-wide model, o_proj {4096, 6144}
    c = cfg_of("nvidia/Minitron-4B-Base"); c.hidden_size, c.num_attention_heads, c.head_dim = 4096, 48, 128
    local o = nil
    for _, t in ipairs(build("nemotron", c).tensors) do if t.name == "model.layers.*.self_attn.o_proj.weight" then o = t end end
    check(o and o.shape[1] == 4096 and o.shape[2] == 6144, "nemotron: o_proj {hidden, heads x head_dim}")
    c = cfg_of("nvidia/Minitron-4B-Base"); c.partial_rotary_factor = "half"
    check(err_of(build, "nemotron", c) == "config: field 'partial_rotary_factor' must be a number in (0, 1], got string half",
          "nemotron: a non-numeric partial_rotary_factor is refused naming the field")
  end
end

-- arch-dense: StableLM's partial RoPE, LayerNorm with bias, per-head q/k LayerNorms, parallel residual
do
  local d = built["stabilityai/stablelm-2-1_6b"]
  if check(d ~= nil, "stablelm-2-1_6b built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["model.layers.*.self_attn.q_proj.bias"] and n["model.layers.*.self_attn.o_proj.bias"] == nil
          and n["model.norm.bias"] and d.rotary_dim == 16 and d.block.norm == "layer",
          "stablelm: q/k/v bias only, LayerNorm with bias, RoPE on 16 of 64")
    -- StableLM 2 12B's layout: per-head q/k LayerNorms, parallel residual without post_attention_layernorm
    local c = cfg_of("stabilityai/stablelm-2-1_6b"); c.qk_layernorm, c.use_parallel_residual = true, true
    c.num_key_value_heads, c.partial_rotary_factor = 8, nil
    local e = build("stablelm", c)
    local m = {}
    for _, t in ipairs(e.tensors) do m[t.name] = t end
    check(m["model.layers.*.self_attn.q_layernorm.norms.*.weight"].count == 24 * 32
          and m["model.layers.*.self_attn.k_layernorm.norms.*.weight"].count == 24 * 8
          and m["model.layers.*.post_attention_layernorm.weight"] == nil and e.block.parallel_residual == true
          and e.rotary_dim == 16, "stablelm: per-head q/k norms, parallel residual, partial_rotary_factor default 0.25")
  end
end

-- arch-dense: GPTBigCode's fused multi-query c_attn and learned positions
do
  local d = built["bigcode/starcoderbase-1b"]
  if check(d ~= nil, "starcoderbase-1b built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["transformer.h.*.attn.c_attn.weight"].shape[1] == 2048 + 2 * 128 and n["transformer.h.*.attn.c_attn.bias"]
          and n["transformer.wpe.weight"].role == "pos_embed" and n["lm_head.weight"] == nil and d.rope_rows == 0
          and d.kv_heads == 1, "gpt_bigcode: c_attn {h + 2 d, h}, learned positions, tied, no RoPE cache, one K/V head")
    local c = cfg_of("bigcode/starcoderbase-1b"); c.multi_query = false
    local e = build("gpt_bigcode", c)
    local ca = nil
    for _, t in ipairs(e.tensors) do if t.name == "transformer.h.*.attn.c_attn.weight" then ca = t end end
    check(e.kv[1].kv_heads == 16 and ca.shape[1] == 3 * 2048, "gpt_bigcode: multi_query false is MHA, c_attn {3 h, h}")
    c = cfg_of("bigcode/starcoderbase-1b"); c.n_head = 15
    check(err_of(build, "gpt_bigcode", c) ~= nil and err_of(build, "gpt_bigcode", c):find("n_embd / n_head", 1, true) ~= nil,
          "gpt_bigcode: a head count that does not divide n_embd is refused naming the fields")
  end
end

-- arch-dense: EXAONE 3.5's names and its num_layers field
do
  local d = built["LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct"]
  if check(d ~= nil, "EXAONE-3.5-7.8B built") then
    local n = {}
    for _, t in ipairs(d.tensors) do n[t.name] = t end
    check(n["transformer.h.*.attn.attention.out_proj.weight"] and n["transformer.h.*.attn.attention.o_proj.weight"] == nil
          and n["transformer.h.*.mlp.c_fc_0.weight"].shape[1] == 14336 and n["transformer.ln_f.weight"] and d.layers == 32,
          "exaone: out_proj, c_fc_0 / c_fc_1 / c_proj, ln_f, num_layers 32")
    local c = cfg_of("LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct"); c.num_layers = nil
    check(err_of(build, "exaone", c) == "config: missing field 'num_layers'", "exaone: no layer count is refused naming num_layers")
  end
end

-- arch-new3: Zamba2's shared blocks, adapters, states and config errors
do
  local function names_of(d) local n = {} for _, t in ipairs(d.tensors) do n[t.name] = t end return n end
  local z = built["Zyphra/Zamba2-7B"]
  if check(z ~= nil, "Zamba2-7B built") then
    local n = names_of(z)
    local sp = "model.layers.*.shared_transformer."
    check(n[sp .. "self_attn.q_proj.weight"].count == 2 and n[sp .. "self_attn.q_proj.weight"].shape[1] == 7168
          and n[sp .. "self_attn.q_proj.weight"].shape[2] == 7168, "zamba2: 2 shared blocks, q_proj {2h, 2h}")
    check(n[sp .. "self_attn.o_proj.weight"].shape[1] == 3584 and n[sp .. "self_attn.o_proj.weight"].shape[2] == 7168,
          "zamba2: o_proj {h, heads x 2h / heads}")
    check(n[sp .. "feed_forward.gate_up_proj_adapter_list.*.1.weight"].count == 13
          and n[sp .. "feed_forward.gate_up_proj_adapter_list.*.1.weight"].shape[1] == 2 * 14336,
          "zamba2: one MLP adapter per hybrid application (13)")
    check(n[sp .. "self_attn.linear_q_adapter_list.*.0.weight"] == nil, "zamba2-7B: no attention adapters")
    check(n["model.layers.*.linear.weight"].count == 13 and n["lm_head.weight"] == nil, "zamba2: 13 hybrid Linears, tied head")
    local st = z.kv[2]
    -- conv window 3 x (7168 + 2 x 2 x 64) + SSM 112 heads x 64 x 64, in all 81 layers
    check(st.kind == "mamba" and st.layers == 81 and st.conv_elems == 3 * 7424 and st.state_elems == 3 * 7424 + 112 * 64 * 64,
          "Zamba2-7B: 81 Mamba-2 state layers, conv 3 x 7424 + SSM 112 x 64 x 64")
    check(z.kv[1].layers == 13 and z.kv[1].k_dim == 224 and z.kv[1].layer_ids[1] == 6 and z.kv[1].layer_ids[13] == 77,
          "Zamba2-7B: K/V in the 13 hybrid layers 6 .. 77, head_dim 224")
  end
  local s = built["Zyphra/Zamba2-1.2B"]
  if check(s ~= nil, "Zamba2-1.2B built") then
    local n = names_of(s)
    check(n["model.layers.*.shared_transformer.self_attn.linear_v_adapter_list.*.1.weight"].count == 6,
          "zamba2-1.2B: attention adapters in the 6 applications")
    check(s.rope_rows ~= 0 and built["Zyphra/Zamba2-2.7B"].rope_rows == 0, "zamba2: RoPE cache only with use_mem_rope")
  end
  local c = cfg_of("Zyphra/Zamba2-7B"); c.layers_block_type = nil
  check(err_of(build, "zamba2", c) == "config: missing field 'layers_block_type'", "zamba2: no layers_block_type is refused")
  c = cfg_of("Zyphra/Zamba2-7B"); table.remove(c.layers_block_type)
  local e = err_of(build, "zamba2", c)
  check(e == "config: field 'layers_block_type' must be a list of 81 entries (num_hidden_layers)", "zamba2: short layers_block_type: " .. tostring(e))
  c = cfg_of("Zyphra/Zamba2-7B"); c.layers_block_type[7] = "attention"
  e = err_of(build, "zamba2", c)
  check(e == "config: entry 6 of 'layers_block_type' (attention) is not mamba or hybrid", "zamba2: unknown block type: " .. tostring(e))
  c = cfg_of("Zyphra/Zamba2-7B"); c.n_mamba_heads = nil
  check(err_of(build, "zamba2", c) == "config: missing field 'n_mamba_heads'", "zamba2: no n_mamba_heads is refused")
  c = cfg_of("Zyphra/Zamba2-7B"); c.n_mamba_heads = 100
  e = err_of(build, "zamba2", c)
  check(e ~= nil and e:find("n_mamba_heads", 1, true) ~= nil, "zamba2: heads that do not divide d_inner are refused: " .. tostring(e))
  c = cfg_of("Zyphra/Zamba2-1.2B"); c.use_shared_attention_adapter = false
  check(params(build("zamba2", c)) == 1215064704 - 6 * 3 * 2 * 4096 * 128, "zamba2: attention adapters are 6 x 3 x 2 x 4096 x 128")
  c = cfg_of("Zyphra/Zamba2-1.2B"); c.tie_word_embeddings = false
  check(params(build("zamba2", c)) == 1215064704 + 32000 * 2048, "zamba2: an untied head adds 32000 x 2048")
end

-- arch-new3: Kimi-VL's names, projector and config errors
do
  local function names_of(d) local n = {} for _, t in ipairs(d.tensors) do n[t.name] = t end return n end
  local k = built["moonshotai/Kimi-VL-A3B-Instruct"]
  if check(k ~= nil, "Kimi-VL-A3B built") then
    local n = names_of(k)
    check(n["language_model.lm_head.weight"] and n["language_model.model.embed_tokens.weight"]
          and n["language_model.model.layers.*.self_attn.kv_a_proj_with_mqa.weight"],
          "kimi_vl: the DeepSeek-V3 decoder under language_model")
    local pe = n["vision_tower.patch_embed.pos_emb.weight"]
    check(pe and pe.shape[1] == 64 and pe.shape[2] == 64 and pe.shape[3] == 1152, "kimi_vl: pos_emb {64, 64, 1152}")
    check(n["vision_tower.encoder.blocks.*.wqkv.bias"].count == 27, "kimi_vl: 27 MoonViT blocks, biased wqkv")
    local l1 = n["multi_modal_projector.linear_1.weight"]
    check(l1.shape[1] == 4608 and l1.shape[2] == 4608 and n["multi_modal_projector.linear_2.weight"].shape[1] == 2048,
          "kimi_vl: projector over 2 x 2 merged patches (4608) to the text hidden 2048")
    check(k.kv[1].layers == 27 and k.arch == "kimi_vl", "kimi_vl: MLA cache on the 27 text layers")
  end
  local c = cfg_of("moonshotai/Kimi-VL-A3B-Instruct"); c.text_config = nil
  check(err_of(build, "kimi_vl", c) == "config: missing field 'text_config'", "kimi_vl: no text_config is refused")
  c = cfg_of("moonshotai/Kimi-VL-A3B-Instruct"); c.text_config.kv_lora_rank = nil
  check(err_of(build, "kimi_vl", c) == "config: missing field 'kv_lora_rank'", "kimi_vl: text_config without kv_lora_rank")
  c = cfg_of("moonshotai/Kimi-VL-A3B-Instruct"); c.vision_config.merge_kernel_size = 2
  check(err_of(build, "kimi_vl", c) == "config: field 'vision_config.merge_kernel_size' must be a list of two positive integers",
        "kimi_vl: a scalar merge_kernel_size is refused")
  c = cfg_of("moonshotai/Kimi-VL-A3B-Instruct"); c.vision_config.merge_kernel_size = { 1, 1 }
  check(params(build("kimi_vl", c)) == 16407656048 - (4608 * 4608 + 4608 + 2048 * 4608) + (1152 * 1152 + 1152 + 2048 * 1152),
        "kimi_vl: the projector width follows merge_kernel_size")
end

-- arch-new3: Phi-3.5-vision's image embedding and its config errors
do
  local function names_of(d) local n = {} for _, t in ipairs(d.tensors) do n[t.name] = t end return n end
  local p = built["microsoft/Phi-3.5-vision-instruct"]
  if check(p ~= nil, "Phi-3.5-vision built") then
    local n = names_of(p)
    local pre = "model.vision_embed_tokens."
    check(n[pre .. "img_processor.vision_model.embeddings.position_embedding.weight"].shape[1] == 577
          and n[pre .. "img_processor.vision_model.encoder.layers.*.mlp.fc1.weight"].count == 24,
          "phi3_v: CLIP ViT-L/14-336, 577 positions, 24 layers")
    check(n[pre .. "sub_GN"].shape[4] == 4096 and n[pre .. "img_projection.0.weight"].shape[2] == 4096
          and n[pre .. "img_projection.2.weight"].shape[1] == 3072, "phi3_v: HD separators and the 4096 -> 3072 projection")
    check(n["model.layers.*.self_attn.qkv_proj.weight"] ~= nil and p.arch == "phi3_v", "phi3_v: Phi-3's fused qkv_proj")
  end
  local c = cfg_of("microsoft/Phi-3.5-vision-instruct"); c.img_processor = nil
  check(err_of(build, "phi3_v", c) == "config: missing field 'img_processor'", "phi3_v: no img_processor is refused")
  c = cfg_of("microsoft/Phi-3.5-vision-instruct"); c.img_processor.image_dim_out = 768
  local e = err_of(build, "phi3_v", c)
  check(e ~= nil and e:find("img_processor.image_dim_out", 1, true) ~= nil, "phi3_v: another tower width is refused: " .. tostring(e))
  c = cfg_of("microsoft/Phi-3.5-vision-instruct"); c.embd_layer.projection_cls = "linear"
  e = err_of(build, "phi3_v", c)
  check(e ~= nil and e:find("embd_layer", 1, true) ~= nil, "phi3_v: a linear projection is refused: " .. tostring(e))
end

if os.getenv("VERBOSE") then
  for _, id in ipairs(ids) do if counts[id] then print(("%-55s %d"):format(id, counts[id])) end end
end
print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
