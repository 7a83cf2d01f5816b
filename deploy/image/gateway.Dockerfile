# The gateway's image. Build from the repository root after `mvn -B -DskipTests package`:
#   docker build -f deploy/image/gateway.Dockerfile \
#     --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" \
#     -t trainyard/gateway:0.1.0 .
# A maintained JRE 17 (Eclipse Temurin, Ubuntu Noble), no shell tools added, a non-root user, and
# nothing written to the image at run time: the Deployment mounts /var/lib/trainyard and /tmp and
# sets readOnlyRootFilesystem.
# The class-data-sharing archive (/opt/trainyard/trainyard.jsa) is built here, by one training start
# of the jar with this image's JDK (an archive is only valid for the JVM build and the jar path that
# wrote it), with the script the build uses at package time (gateway/src/cds/train-archive.sh: a
# start, a few requests, a stop); JAVA_TOOL_OPTIONS names it.
# A JVM that cannot map it warns once and starts without it.
FROM eclipse-temurin:17-jre-noble

ARG VERSION
ARG REVISION
LABEL org.opencontainers.image.title="trainyard-gateway" \
      org.opencontainers.image.description="Trainyard training gateway" \
      org.opencontainers.image.source="https://github.com/trainyard/trainyard" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

RUN groupadd --system --gid 10001 trainyard \
 && useradd --system --uid 10001 --gid trainyard --home-dir /var/lib/trainyard --no-create-home trainyard \
 && mkdir -p /var/lib/trainyard /etc/trainyard \
 && chown trainyard:trainyard /var/lib/trainyard

COPY --chown=root:root --chmod=0444 gateway/target/trainyard.jar /opt/trainyard/trainyard.jar
COPY --chown=root:root --chmod=0555 gateway/src/cds/train-archive.sh /opt/trainyard/train-archive.sh

RUN /opt/trainyard/train-archive.sh java /opt/trainyard/trainyard.jar /opt/trainyard/trainyard.jsa /tmp/cds-training \
 && chmod 0444 /opt/trainyard/trainyard.jsa \
 && rm -rf /tmp/cds-training

USER 10001:10001
WORKDIR /var/lib/trainyard
EXPOSE 8080 8081
# Heap from the container's memory limit; an OutOfMemoryError ends the process (Kubernetes
# restarts it) instead of leaving a half-working gateway; temp files on the mounted /tmp; classes
# mapped from the archive built above (about a second less to start).
ENV JAVA_TOOL_OPTIONS="-XX:SharedArchiveFile=/opt/trainyard/trainyard.jsa -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -Djava.io.tmpdir=/tmp"
ENTRYPOINT ["java", "-jar", "/opt/trainyard/trainyard.jar"]
CMD ["server", "/etc/trainyard/trainyard.yml"]
