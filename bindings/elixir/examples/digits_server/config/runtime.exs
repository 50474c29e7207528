import Config

# Read when the release boots, not when it is built: one release serves every machine.
# The first device of the list that can run here is used; the ones passed over are logged.
config :kiln, devices: System.get_env("KILN_DEVICES", "cpu,interp")
