// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The built chat page (reference_server/portfolio/web/dist), served from memory
// by agentio::http::static_files with the server's Spanish texts, its error
// shape, and a page that says how to build it when it is missing.
#pragma once

#include <agentio/http/static_files.hpp>

#include <filesystem>

namespace portfolio {

/// Reads the page in `dir` (nothing when `dir` is empty or has no index.html).
agentio::http::static_files load_web_page(std::filesystem::path const& dir);

} // namespace portfolio
