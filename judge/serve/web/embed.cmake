# SPDX-License-Identifier: MIT
# Turns the web page (IN) into a C++ source (OUT) defining judge::serve::WebPage().
file(READ ${IN} page HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${page}")
file(WRITE ${OUT} "// Generated from ${IN} by embed.cmake: do not edit.\n#include <string_view>\nnamespace judge::serve {\nnamespace { const char kPage[] = {${bytes} 0}; }\nstd::string_view WebPage() { return {kPage, sizeof(kPage) - 1}; }\n}  // namespace judge::serve\n")
