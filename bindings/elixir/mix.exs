defmodule Mix.Tasks.Compile.KilnNative do
  @moduledoc """
  Builds Kiln's NIF, `libkiln.so` and every backend plugin with Kiln's own CMake build, and
  installs them into the application's `priv/`:

      priv/lib/libkiln_nif.so            the NIF (RUNPATH $ORIGIN)
      priv/lib/libkiln.so.0              Kiln's runtime
      priv/lib/kiln-plugins/libkiln-*.so every backend the build has (cpu, interp, null, ...)
      priv/bin/kiln                      the CLI

  `KILN_BUILD_DIR` names a configured Kiln build folder to use (the top-level build's
  tests pass theirs); without it the package configures its own in `_build/kiln-cmake`
  from the Kiln source tree two levels up. `KILN_BUILD_JOBS` bounds the build's parallelism.
  """
  use Mix.Task.Compiler

  @source Path.expand("../..", __DIR__)

  @impl true
  def run(_args) do
    build = System.get_env("KILN_BUILD_DIR") || configure(Path.join(__DIR__, "_build/kiln-cmake"))
    priv = Path.join(Mix.Project.app_path(), "priv")
    jobs = System.get_env("KILN_BUILD_JOBS", "#{System.schedulers_online()}")
    strip = if Mix.env() == :prod, do: ["--strip"], else: []

    with :ok <- cmake(["--build", build, "--target", "kiln_elixir", "-j", jobs]),
         :ok <- cmake(["--install", build, "--component", "runtime", "--prefix", priv] ++ strip),
         :ok <- cmake(["--install", build, "--component", "elixir", "--prefix", priv] ++ strip) do
      {:ok, []}
    else
      {:error, message} ->
        Mix.shell().error(message)
        {:error, [message]}
    end
  end

  defp configure(build) do
    unless File.exists?(Path.join(build, "CMakeCache.txt")) do
      :ok = cmake(["-S", @source, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"])
    end

    build
  end

  defp cmake(args) do
    case System.cmd("cmake", args, stderr_to_stdout: true) do
      {_, 0} -> :ok
      {out, rc} -> {:error, "cmake #{Enum.join(args, " ")} failed (exit status #{rc}):\n#{out}"}
    end
  end
end

defmodule Kiln.MixProject do
  use Mix.Project

  def project do
    [
      app: :kiln,
      version: "0.1.0",
      elixir: "~> 1.14",
      compilers: [:kiln_native] ++ Mix.compilers(),
      start_permanent: Mix.env() == :prod,
      deps: []
    ]
  end

  def application do
    [
      mod: {Kiln.Application, []},
      extra_applications: [:logger],
      # devices: nil keeps Kiln's own order (KILN_DEFAULT_DEVICES, "cpu,interp").
      env: [devices: nil, plugin_paths: nil, config_file: nil, ignore_env: false]
    ]
  end
end
