#!/bin/sh
# mkseeds.sh MKMODEL: regenerates the binary seeds of tests/fuzz/corpus/{gguf,safetensors}
# with tools/mkmodel (tiny models, then every malformed kind of `mkmodel bad list`).
# Run from the repository root: sh tests/fuzz/mkseeds.sh build/mkmodel
set -eu
M=${1:-build/mkmodel}
C=tests/fuzz/corpus
tiny="--layers 1 --embd 32 --ff 32 --heads 2 --heads-kv 1 --vocab 16 --ctx 64"
for t in f32 f16 bf16 q8_0 q4_0 q5_1; do "$M" gguf "$C/gguf/tiny-$t.gguf" $tiny --ftype "$t" >/dev/null; done
"$M" gguf "$C/gguf/tiny-tied.gguf" $tiny --tied >/dev/null
for k in $("$M" bad list); do
  case $k in
    gguf-*) "$M" bad "$k" "$C/gguf/bad-$k" ;;
    st-*) "$M" bad "$k" "$C/safetensors/bad-$k" ;;
  esac
done
st() { # st NAME JSON DATA_BYTES: an 8-byte little-endian header length, the header, zeros
  n=$(printf '%s' "$2" | wc -c)
  { printf "$(printf '\\%03o\\%03o\\%03o' $((n & 255)) $((n >> 8 & 255)) $((n >> 16 & 255)))\\000\\000\\000\\000\\000"
    printf '%s' "$2"; head -c "$3" /dev/zero; } >"$C/safetensors/$1.safetensors"
}
st plain '{"__metadata__":{"format":"pt"},"model.embed_tokens.weight":{"dtype":"BF16","shape":[8,4],"data_offsets":[0,64]},"model.layers.0.self_attn.q_proj.weight":{"dtype":"F16","shape":[4,4],"data_offsets":[64,96]},"model.norm.weight":{"dtype":"F32","shape":[4],"data_offsets":[96,112]},"lm_head.weight":{"dtype":"F8_E4M3","shape":[8,4],"data_offsets":[112,144]}}' 144
st gptq '{"model.layers.0.mlp.up_proj.qweight":{"dtype":"I32","shape":[4,32],"data_offsets":[0,512]},"model.layers.0.mlp.up_proj.scales":{"dtype":"F16","shape":[1,32],"data_offsets":[512,576]},"model.layers.0.mlp.up_proj.qzeros":{"dtype":"I32","shape":[1,4],"data_offsets":[576,592]},"model.layers.0.mlp.up_proj.g_idx":{"dtype":"I32","shape":[32],"data_offsets":[592,720]}}' 720
st bnb '{"model.layers.0.mlp.up_proj.weight":{"dtype":"U8","shape":[64,1],"data_offsets":[0,64]},"model.layers.0.mlp.up_proj.weight.absmax":{"dtype":"F32","shape":[2],"data_offsets":[64,72]},"model.layers.0.mlp.up_proj.weight.quant_state.bitsandbytes__nf4":{"dtype":"U8","shape":[8],"data_offsets":[72,80]}}' 80
st empty '{}' 0
