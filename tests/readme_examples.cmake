# ctest driver: every example file the README shows in full must appear in
# it verbatim, so the README cannot drift from the programs the tests run.
#   cmake -DREADME=... -DEXAMPLES="a.cpp;b.cpp" -P readme_examples.cmake
file(READ ${README} readme)
foreach(example IN LISTS EXAMPLES)
  file(READ ${example} text)
  string(FIND "${readme}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md does not show ${example} as it is (copy the file into its code block)")
  endif()
endforeach()
