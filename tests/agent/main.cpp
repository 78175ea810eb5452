#define BOOST_TEST_MODULE agentio agent tests
#include <boost/test/unit_test.hpp>
