//
// agentio/http/src.hpp
// ~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the HTTP layer: the HTTP client, JWTs, static files. The
// providers built on it are compiled by <agentio/llm/src.hpp>.
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_HTTP_SRC_HPP
#define AGENTIO_HTTP_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/http/client.hpp>
#include <agentio/http/jwt.hpp>
#include <agentio/http/multipart.hpp>
#include <agentio/http/static_files.hpp>

#include <agentio/http/impl/client.ipp>
#include <agentio/http/impl/jwt.ipp>
#include <agentio/http/impl/multipart.ipp>
#include <agentio/http/impl/static_files.ipp>

#endif
