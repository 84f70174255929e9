// SPDX-License-Identifier: MIT
#pragma once
// Turns a source file into a shared library. NvccCompiler builds submissions for the GPU;
// HostCompiler builds host-only code (problem references, and submissions for the host test
// double that lets CI run the whole judge without a GPU).
#include <memory>
#include <string>
#include <vector>

#include "judge/util/expected.h"
#include "judge/util/subprocess.h"

namespace judge {

// One compile: the source, the library to write and how to run the compiler (its wall-clock
// limit, and the sandbox's folder, environment and confinement: build/compile_sandbox.h).
struct CompileJob {
  std::string source;
  std::string output;
  std::string target;
  ProcessOptions process;
};

class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual std::string Name() const = 0;
  // Identifies the exact compiler (path + version banner): part of every cache key.
  virtual Expected<std::string> Identity() = 0;
  virtual std::vector<std::string> Flags(const std::string& target) const = 0;
  // What the compiler reads beyond the system's folders (its installation, include folders): the
  // sandbox lets it read these and nothing else.
  virtual std::vector<std::string> ReadPaths() const = 0;
  // Runs the compiler; a failed compile is a ProcessResult, not an Error.
  virtual Expected<ProcessResult> Compile(const CompileJob& job) = 0;
};

class NvccCompiler : public Compiler {
 public:
  // `nvcc_path` empty: $NVCC, $CUDA_HOME/bin/nvcc, PATH, /usr/local/cuda/bin/nvcc. `extra_flags`
  // follow the judge's own (the problem's -l<library>).
  explicit NvccCompiler(std::string nvcc_path = "", std::vector<std::string> extra_flags = {});
  std::string Name() const override { return "nvcc"; }
  Expected<std::string> Identity() override;
  std::vector<std::string> Flags(const std::string& target) const override;
  std::vector<std::string> ReadPaths() const override;
  Expected<ProcessResult> Compile(const CompileJob& job) override;
  const std::string& path() const { return path_; }
  // "13.0" from `nvcc --version`, for reports.
  std::string ReleaseVersion();

 private:
  std::string path_;
  std::vector<std::string> extra_flags_;
  std::string identity_;
};

class HostCompiler : public Compiler {
 public:
  explicit HostCompiler(std::vector<std::string> extra_flags = {});
  std::string Name() const override { return "c++"; }
  Expected<std::string> Identity() override;
  std::vector<std::string> Flags(const std::string& target) const override;
  std::vector<std::string> ReadPaths() const override;
  Expected<ProcessResult> Compile(const CompileJob& job) override;

 private:
  std::string path_;
  std::vector<std::string> extra_flags_;
  std::string identity_;
};

// "sm_90" from a compute capability of 9.0.
std::string ArchForComputeCapability(int major, int minor);

}  // namespace judge
