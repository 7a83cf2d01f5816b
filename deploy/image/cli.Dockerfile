# The CLI's image, for pipelines (Argo Workflows, Tekton) that submit jobs. From the repository root
# after `mvn -B -DskipTests package`:
#   docker build -f deploy/image/cli.Dockerfile \
#     --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" \
#     -t trainyard/cli:0.1.0 .
FROM eclipse-temurin:17-jre-noble

ARG VERSION
ARG REVISION
LABEL org.opencontainers.image.title="trainyard-cli" \
      org.opencontainers.image.description="Trainyard command-line client" \
      org.opencontainers.image.source="https://github.com/trainyard/trainyard" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

RUN groupadd --system --gid 10001 trainyard \
 && useradd --system --uid 10001 --gid trainyard --create-home trainyard

COPY --chown=root:root --chmod=0444 cli/target/trainyard-cli.jar /opt/trainyard/trainyard-cli.jar

USER 10001:10001
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
ENTRYPOINT ["java", "-jar", "/opt/trainyard/trainyard-cli.jar"]
