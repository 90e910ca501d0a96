-- SGD without momentum (torch.optim.SGD, momentum=0): no state; the foreach update
-- adds the scaled gradient in place.
return optimizer { name = "sgd", summary = "torch.optim.SGD, no momentum: no state", states = 0, step_temps = 0 }
