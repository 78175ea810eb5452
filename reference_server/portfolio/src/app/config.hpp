// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Configuration from the environment, a .env file and command-line flags, in
// that order of precedence: flag > environment > .env > default.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace portfolio {

/// The environment variable, or nothing when unset or empty.
std::optional<std::string> env(char const* name);

/// The default database: $PORTFOLIO_DB, else data/portfolio.db.
std::filesystem::path default_db_path();

} // namespace portfolio
