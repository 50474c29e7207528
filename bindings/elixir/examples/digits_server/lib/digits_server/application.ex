defmodule DigitsServer.Application do
  @moduledoc false
  use Application

  @impl true
  def start(_type, _args) do
    Supervisor.start_link([DigitsServer], strategy: :one_for_one, name: DigitsServer.Supervisor)
  end
end
