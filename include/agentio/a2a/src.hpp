//
// agentio/a2a/src.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The a2a component's non-template code, compiled once: include this in
// one source file of a program built with AGENTIO_SEPARATE_COMPILATION.
//

#ifndef AGENTIO_A2A_SRC_HPP
#define AGENTIO_A2A_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/a2a/client.hpp>
#include <agentio/a2a/endpoint.hpp>
#include <agentio/a2a/protocol.hpp>

#include <agentio/a2a/impl/protocol.ipp>
#include <agentio/a2a/impl/endpoint.ipp>
#include <agentio/a2a/impl/client.ipp>

#endif
