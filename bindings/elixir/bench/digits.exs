# The per-run cost of Kiln.run on the digits classifier, next to the C API's figure for the
# same model, device and input (`kiln bench`, the CLI this package ships in priv/bin),
# measured in the same session:
#
#   cd bindings/elixir && MIX_ENV=prod mix run bench/digits.exs [ITERATIONS] [DEVICE]
#
# Kiln.run's figure covers what an Elixir caller pays: the dirty-scheduler NIF call, the
# input buffer made from the binary, the run, and the result copied into a new binary.
# `kiln bench` times the run alone (inputs made once, results dropped).
{iterations, device} =
  case System.argv() do
    [n, d] -> {String.to_integer(n), d}
    [n] -> {String.to_integer(n), "cpu"}
    [] -> {20_000, "cpu"}
  end

digits = Path.expand("../../../examples/digits", __DIR__)
model = Path.join(digits, "digits.mlir")
npy = Path.join(digits, "input.npy")
<<0x93, "NUMPY", 1, 0, len::little-16, _::binary-size(len), image::binary>> = File.read!(npy)

{:ok, client} = Kiln.Client.open(devices: device, ignore_env: true)
{:ok, exe} = Kiln.load(model, client: client)
input = [{image, :f32, {1, 64}}]
for _ <- 1..1000, do: {:ok, _} = Kiln.run(exe, input)

samples =
  for _ <- 1..iterations do
    t0 = System.monotonic_time(:nanosecond)
    {:ok, _} = Kiln.run(exe, input)
    System.monotonic_time(:nanosecond) - t0
  end
  |> Enum.sort()

at = fn q -> Enum.at(samples, min(length(samples) - 1, trunc(q * length(samples)))) / 1000 end
median = at.(0.5)

IO.puts(
  "Kiln.run on #{exe.device}: median #{Float.round(median, 2)} us " <>
    "(min #{Float.round(at.(0.0), 2)}, p90 #{Float.round(at.(0.9), 2)}) over #{iterations} runs"
)

cli = Path.join(:code.priv_dir(:kiln), "bin/kiln")
args = ["bench", model, "--input", npy, "--device", device, "--iterations", "#{iterations}"]
{out, 0} = System.cmd(cli, args, env: [{"KILN_DEVICE", nil}])

IO.write(
  "C API (kiln bench): " <> (out |> String.split("\n") |> Enum.find("", &(&1 =~ "run: median"))) <> "\n"
)

case Regex.run(~r/run: median ([0-9.]+) us/, out) do
  [_, c] -> IO.puts("Elixir overhead per run: #{Float.round(median - String.to_float(c), 2)} us")
  _ -> IO.puts(out)
end
