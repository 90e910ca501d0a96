-- Muon (K. Jordan et al., 2024; torch.optim.Muon since PyTorch 2.9): SGD momentum whose
-- update is orthogonalised by five Newton-Schulz iterations. It takes the 2-D weight
-- matrices of the hidden layers only (torch.optim.Muon rejects other shapes); the usual
-- recipe (modded-nanogpt, Moonshot's Moonlight) gives embeddings, the output head and
-- every vector (norms, biases) to AdamW, two states each. One momentum buffer per matrix.
-- The step runs one matrix at a time: the bf16 copy X being iterated, X X^T and its
-- polynomial (min-dim squared each) and the product B X: about two parameter-sized
-- temporaries of the largest matrix (assumed from the algorithm, not measured).
return optimizer {
  name = "muon",
  summary = "Muon on hidden-layer matrices (1 momentum state) + AdamW on the rest (2 states)",
  states = 1,
  step_temps = 2,
  temp_scope = "param",
  takes = function(shape, role)
    return #shape == 2 and role ~= "embed" and role ~= "lm_head" and role ~= "pos_embed"
  end,
  others = { states = 2 },
}
