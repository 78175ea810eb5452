//
// agentio/detail/cancellation.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//

#ifndef AGENTIO_DETAIL_CANCELLATION_HPP
#define AGENTIO_DETAIL_CANCELLATION_HPP

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <exception>

namespace agentio::detail {

/// Whether an exception is the cancellation of an operation (`operation_aborted`).
inline bool is_cancellation(std::exception_ptr const& e)
{
    try
    {
        std::rethrow_exception(e);
    }
    catch(boost::system::system_error const& se)
    {
        return se.code() == boost::asio::error::operation_aborted;
    }
    catch(...)
    {
        return false;
    }
}

} // namespace agentio::detail

#endif
