defmodule KilnTest do
  use ExUnit.Case, async: true

  @digits Path.expand("../../../examples/digits", __DIR__)
  @model Path.join(@digits, "digits.mlir")

  setup_all do
    {:ok, cpu} = Kiln.Client.open(devices: "cpu,interp", ignore_env: true)
    {:ok, interp} = Kiln.Client.open(devices: "interp", ignore_env: true)
    {:ok, cpu: cpu, interp: interp, input: Kiln.TestNpy.read!(Path.join(@digits, "input.npy"))}
  end

  defp close?(got, want),
    do: Enum.zip(got, want) |> Enum.all?(fn {a, b} -> abs(a - b) <= 1.0e-5 * max(1.0, abs(b)) end)

  defp argmax(floats), do: floats |> Enum.with_index() |> Enum.max_by(&elem(&1, 0)) |> elem(1)

  defp expected,
    do: Kiln.TestNpy.read!(Path.join(@digits, "expected.npy")) |> elem(0) |> Kiln.TestNpy.floats()

  describe "the digits classifier" do
    test "gives JAX's answer on each device", %{cpu: cpu, interp: interp, input: input} do
      for client <- [cpu, interp] do
        {:ok, exe} = Kiln.load(@model, client: client)
        assert exe.device == "#{client.plugin}:0"
        assert {exe.function, exe.num_inputs, exe.num_results} == {"main", 1, 1}
        assert {:ok, [{logits, :f32, {1, 10}}]} = Kiln.run(exe, [input])
        assert close?(Kiln.TestNpy.floats(logits), expected())
        assert argmax(Kiln.TestNpy.floats(logits)) == 2
      end
    end

    test "loads from a binary and takes tensors, lists and Nx types", %{cpu: cpu, input: {data, _, _}} do
      {:ok, exe} = Kiln.load(File.read!(@model), client: cpu, name: "digits")

      assert {:ok, [%Kiln.Tensor{type: :f32, shape: {1, 10}} = out]} =
               Kiln.run(exe, [Kiln.Tensor.new(data, {:f, 32}, [1, 64])])

      assert {:ok, [{data2, :f32, {1, 10}}]} = Kiln.run(exe, [{data, {:f, 32}, [1, 64]}])
      assert out.data == data2
      assert {:ok, [{_, :f32, {1, 10}}]} = Kiln.run(exe, [Kiln.Tensor.new(data, :f32, {1, 64})], as: :tuple)
    end

    test "uses the application's client by default", %{input: input} do
      assert Kiln.version() =~ ~r/^\d+\.\d+\.\d+$/
      assert {:ok, %Kiln.Client{}} = Kiln.client()
      assert {:ok, exe} = Kiln.load(@model)
      assert {:ok, [{_, :f32, {1, 10}}]} = Kiln.run(exe, [input])
    end
  end

  describe "other programs" do
    test "integers, scalars, empty tensors and tokens", %{cpu: cpu, interp: interp} do
      program = """
      func.func @main(%a: tensor<2xi32>, %b: tensor<i32>, %e: tensor<0x3xf32>) -> (tensor<2xi32>, tensor<0x3xf32>, !stablehlo.token) {
        %s = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<i32>) -> tensor<2xi32>
        %r = stablehlo.add %a, %s : tensor<2xi32>
        %t = stablehlo.after_all : !stablehlo.token
        return %r, %e, %t : tensor<2xi32>, tensor<0x3xf32>, !stablehlo.token
      }
      """

      for client <- [cpu, interp] do
        {:ok, exe} = Kiln.load(program, client: client)

        inputs = [
          {<<1::little-32, -2::little-signed-32>>, {:s, 32}, {2}},
          {<<40::little-32>>, :s32, {}},
          {"", :f32, {0, 3}}
        ]

        assert {:ok, [{sum, :s32, {2}}, {"", :f32, {0, 3}}, {"", :token, {}}]} = Kiln.run(exe, inputs)
        assert sum == <<41::little-32, 38::little-32>>
      end
    end
  end

  describe "bad input is an {:error, message}, and the VM keeps running" do
    setup %{cpu: cpu} do
      {:ok, exe} = Kiln.load(@model, client: cpu)
      {:ok, exe: exe}
    end

    test "a wrong shape", %{exe: exe, input: {data, _, _}} do
      assert {:error, msg} = Kiln.run(exe, [{data, :f32, {2, 32}}])
      assert msg =~ "expects tensor<1x64xf32>, got tensor<2x32xf32>"
      assert {:error, msg} = Kiln.run(exe, [{data, :f32, {1, 63}}])
      assert msg =~ "byte_size is 256; the shape needs 252"
      assert {:error, "input 0: its shape" <> _} = Kiln.run(exe, [{data, :f32, {1, -64}}])
      assert {:error, "input 0: its shape" <> _} = Kiln.run(exe, [{data, :f32, :x}])

      assert {:error, "input 0: its shape" <> _} =
               Kiln.run(exe, [{data, :f32, List.to_tuple(List.duplicate(1, 65))}])
    end

    test "a wrong type", %{exe: exe, input: {data, _, _}} do
      assert {:error, msg} = Kiln.run(exe, [{data, :f64, {1, 32}}])
      assert msg =~ "expects tensor<1x64xf32>, got tensor<1x32xf64>"
      assert {:error, "input 0: unknown element type" <> _} = Kiln.run(exe, [{data, :f33, {1, 64}}])
      assert {:error, "input 0: unknown element type" <> _} = Kiln.run(exe, [{data, {:f, 33}, {1, 64}}])
      assert {:error, "input 0: unknown element type" <> _} = Kiln.run(exe, [{data, :token, {}}])
    end

    test "malformed terms", %{exe: exe, input: input} do
      assert {:error, "the function takes 1 inputs, got 0"} = Kiln.run(exe, [])
      assert {:error, "the function takes 1 inputs, got 2"} = Kiln.run(exe, [input, input])
      assert {:error, "input 0: not a {binary, type, shape} tuple"} = Kiln.run(exe, [:nope])
      assert {:error, "input 0: its data is not a binary"} = Kiln.run(exe, [{[1, 2], :f32, {1, 64}}])
      assert {:error, _} = Kiln.run(exe, :nope)
      assert {:error, _} = Kiln.run(%{exe | ref: make_ref()}, [input])
      assert {:error, _} = Kiln.load(:nope)
      assert {:error, _} = Kiln.load(@model, client: :nope)
      assert {:error, _} = Kiln.Client.open(devices: 42)
      assert {:error, _} = Kiln.Client.open(plugin_paths: [42])
      assert {:error, _} = Kiln.Client.open(config_file: 42)
    end

    test "a malformed program", %{cpu: cpu} do
      assert {:error, msg} =
               Kiln.load("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %y\n}",
                 client: cpu,
                 name: "bad.mlir"
               )

      assert msg =~ ~r/^bad.mlir:2:\d+: error: /
      assert {:error, msg} = Kiln.load(<<"ML", 0xEF, "R", 0, 1, 2, 3>>, client: cpu)
      assert is_binary(msg)

      assert {:error, "cannot read /no/such.mlir: no such file or directory"} =
               Kiln.load("/no/such.mlir", client: cpu)

      assert {:error, msg} = Kiln.load(@model, client: cpu, function: "nope")
      assert msg =~ "nope"
    end

    test "a missing plugin" do
      assert {:error, msg} = Kiln.Client.open(devices: "nosuch", ignore_env: true)
      assert msg =~ "nosuch: no plugin found (no libkiln-nosuch.so in "

      assert {:error, msg} =
               Kiln.Client.open(devices: ["nosuch"], plugin_paths: ["/no/such/dir"], ignore_env: true)

      assert msg =~ "/no/such/dir"
    end

    test "the VM is still alive and runs", %{exe: exe, input: input} do
      assert {:ok, [_]} = Kiln.run(exe, [input])
    end
  end

  describe "devices" do
    test "falls back along the list and says why", %{input: input} do
      {:ok, client} = Kiln.Client.open(devices: ["nosuch", :interp], ignore_env: true)
      assert client.plugin == "interp" and client.devices == ["interp:0"]
      assert [{"nosuch", "no plugin found" <> _}] = Kiln.Client.passed_over(client)
      assert [%{name: "nosuch", status: :not_found}, %{name: "interp", status: :ok}] = client.selection
      {:ok, exe} = Kiln.load(@model, client: client)
      assert {:ok, [_]} = Kiln.run(exe, [input])
    end

    test "lists every plugin the package ships" do
      assert {:ok, reports} = Kiln.devices()
      names = Enum.map(reports, & &1.name)
      assert "interp" in names and "null" in names
      assert Enum.all?(reports, &(is_binary(&1.path) and is_atom(&1.status)))
    end
  end

  describe "many processes" do
    test "8 processes running one executable agree with a single run", %{cpu: cpu, input: input} do
      {:ok, exe} = Kiln.load(@model, client: cpu)
      {:ok, [single]} = Kiln.run(exe, [input])

      results =
        1..8
        |> Enum.map(fn _ -> Task.async(fn -> for _ <- 1..50, do: Kiln.run(exe, [input]) end) end)
        |> Enum.flat_map(&Task.await(&1, 60_000))

      assert length(results) == 400
      assert Enum.all?(results, &(&1 == {:ok, [single]}))
    end

    test "clients and executables are freed in any order", %{input: input} do
      # The executable keeps its client alive: drop the client first, then collect.
      exe =
        (fn ->
           {:ok, client} = Kiln.Client.open(devices: "interp", ignore_env: true)
           {:ok, exe} = Kiln.load(@model, client: client)
           exe
         end).()

      :erlang.garbage_collect()
      assert {:ok, [_]} = Kiln.run(exe, [input])

      # Many short-lived ones, freed by the collector in whatever order it picks.
      for _ <- 1..20 do
        {:ok, client} = Kiln.Client.open(devices: "interp", ignore_env: true)
        {:ok, _} = Kiln.load(@model, client: client)
      end

      :erlang.garbage_collect()
      assert {:ok, [_]} = Kiln.run(exe, [input])
    end
  end
end
