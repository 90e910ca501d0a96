io.open("/tmp/vramfit-escaped", "w")
return {}
