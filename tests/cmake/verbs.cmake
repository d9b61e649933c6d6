# What the two backends of the test verbs share (plain.cmake, tribits.cmake):
# the verbs' keywords, and what a test program gets once a backend made it.
set(DAPETRA_TEST_PROGRAM_KEYWORDS "SOURCES;LIBS;DEFINES;DEPENDS;INCLUDES")
set(DAPETRA_TEST_ONE_VALUE_KEYWORDS "NP;TIMEOUT;PASS_REGEX")
set(DAPETRA_TEST_KEYWORDS "COMMAND;LABELS;FAIL_REGEX;ENV")

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
