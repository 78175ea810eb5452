//
// agentio/app.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The application kit: what every program built on agentio writes around its
// own commands. A typed table of options that makes the usage text and the
// errors (app::command_line), `.env` (app::load_dotenv), main's tail
// (app::run_main), and one way to serve: signals, a graceful shutdown with a
// grace period, exceptions contained (app::serve). The provider's HTTP client
// (llm::provider_client_options), the store (threads::open_store) and JSON
// answers (http::json_response) are in their own components.
//

#ifndef AGENTIO_APP_HPP
#define AGENTIO_APP_HPP

#include <agentio/app/command_line.hpp>
#include <agentio/app/dotenv.hpp>
#include <agentio/app/main.hpp>
#include <agentio/app/serve.hpp>

#endif
