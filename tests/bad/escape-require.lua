local os = require("os")
return {}
