defmodule Mix.Tasks.Compile.DigitsModel do
  @moduledoc "Copies the digits classifier and its sample input (examples/digits) into priv/."
  use Mix.Task.Compiler

  @digits Path.expand("../../../../examples/digits", __DIR__)

  @impl true
  def run(_args) do
    priv = Path.join(Mix.Project.app_path(), "priv")
    File.mkdir_p!(priv)

    for file <- ~w(digits.mlir input.npy expected.npy),
        do: File.cp!(Path.join(@digits, file), Path.join(priv, file))

    {:ok, []}
  end
end

defmodule DigitsServer.MixProject do
  use Mix.Project

  def project do
    [
      app: :digits_server,
      version: "0.1.0",
      elixir: "~> 1.14",
      compilers: Mix.compilers() ++ [:digits_model],
      start_permanent: Mix.env() == :prod,
      deps: [{:kiln, path: "../.."}],
      releases: [digits_server: [include_executables_for: [:unix], steps: [:assemble, :tar]]]
    ]
  end

  def application do
    [mod: {DigitsServer.Application, []}, extra_applications: [:logger]]
  end
end
