return { model = string.dump(function() end) }
