# SPDX-License-Identifier: MIT
# Turns the web page (IN) into a C++ source (OUT) defining judge::serve::WebPage(). The bytes go in
# as unsigned char, so a page with UTF-8 text (bytes above 0x7f) compiles too.
file(READ ${IN} page HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${page}")
file(WRITE ${OUT} "// Generated from ${IN} by embed.cmake: do not edit.\n#include <string_view>\nnamespace judge::serve {\nnamespace {\nconst unsigned char kPage[] = {${bytes} 0};\n}\nstd::string_view WebPage() { return {reinterpret_cast<const char*>(kPage), sizeof(kPage) - 1}; }\n}  // namespace judge::serve\n")
