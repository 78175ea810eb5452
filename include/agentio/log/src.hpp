//
// agentio/log/src.hpp
// ~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The logs' non-template code, for one file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see agentio/config.hpp).
//

#ifndef AGENTIO_LOG_SRC_HPP
#define AGENTIO_LOG_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/log.hpp>

#include <agentio/log/impl/log.ipp>

#endif
