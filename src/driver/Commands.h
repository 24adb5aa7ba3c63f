// Subcommands of the CLI. Each registers its options on CLI11 and a runner that
// returns the process exit status.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace polyfuse {

struct CommandRegistry {
  std::function<int()> chosen;
  int run() { return chosen ? chosen() : 2; }
};

void registerCommands(CLI::App& app, CommandRegistry& reg);

// Runs `body`, turning every error into a message on stderr and an exit status.
// `source` supplies the file text for located errors.
int guarded(const std::string& file, const std::string* source, const std::function<int()>& body);

}  // namespace polyfuse
