#define BOOST_TEST_MODULE agentio library tests
#include <boost/test/unit_test.hpp>
