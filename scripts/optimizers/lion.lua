-- Lion (Chen et al. 2023, arXiv 2302.06675): one exp_avg per parameter; the step
-- forms sign(interpolation) as one state-sized temporary.
return optimizer { name = "lion", summary = "Lion: 1 state, 1 step temporary", states = 1, step_temps = 1,
                  temp_scope = "group" }
