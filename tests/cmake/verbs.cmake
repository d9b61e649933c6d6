# What the two backends of the test verbs share (plain.cmake, tribits.cmake):
# the verbs' keywords, and what a test program gets once a backend made it.
set(DAPETRA_TEST_PROGRAM_KEYWORDS "SOURCES;LIBS;DEFINES;DEPENDS;INCLUDES")
set(DAPETRA_TEST_ONE_VALUE_KEYWORDS "NP;TIMEOUT;PASS_REGEX;RESOURCE_LOCK")
set(DAPETRA_TEST_KEYWORDS "COMMAND;LABELS;FAIL_REGEX;ENV")
# What no test may print, whatever its exit code: Kokkos memory released
# after Kokkos::finalize (Kokkos' own complaint), so a teardown-order fault
# on one Trilinos fails the suite instead of passing with a warning.
set(DAPETRA_TEST_ALWAYS_FAIL_REGEX "SharedAllocationRecord")

# <target> made from a dapetra_test_program call parsed into arg_*; the
# libraries with the keyword the backend's own linking uses.
macro(dapetra_test_program_usage target link_keyword)
  target_link_libraries(${target} ${link_keyword} ${arg_LIBS})
  target_compile_definitions(${target} PRIVATE ${arg_DEFINES})
  target_include_directories(${target} PRIVATE ${arg_INCLUDES})
  if(arg_DEPENDS)
    add_dependencies(${target} ${arg_DEPENDS})
  endif()
  dapetra_warnings(${target})
endmacro()
