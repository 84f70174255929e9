# SPDX-License-Identifier: MIT
# docker build -t gpu-judge . && docker run --rm --gpus all gpu-judge run submissions/06_warp_unroll.cu
# The online judge (the default command): docker run --gpus all -p 8080:8080 -v judge-data:/data gpu-judge
FROM nvidia/cuda:13.0.0-devel-ubuntu24.04

COPY scripts/install-deps.sh /src/scripts/install-deps.sh
RUN JUDGE_RUNTIME_ONLY=1 bash /src/scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*

COPY . /src
RUN cmake -S /src -B /src/build -G Ninja -DJUDGE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
 && cmake --build /src/build \
 && cmake --install /src/build \
 && rm -rf /src/build

# The installed problems, testcases and samples live here, so `run submissions/...` works as is.
WORKDIR /usr/local/share/gpu-judge
ENTRYPOINT ["judge"]
# Everything the service keeps (its queue, tokens, compile cache) is in the volume /data; a token:
# docker run --rm -v judge-data:/data gpu-judge token add alice --data /data
VOLUME /data
EXPOSE 8080
CMD ["serve", "--port", "8080", "--data", "/data"]
