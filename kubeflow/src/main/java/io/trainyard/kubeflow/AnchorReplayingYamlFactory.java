package io.trainyard.kubeflow;

import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLAnchorReplayingParser;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * A YAML factory whose parsers replay anchored content at each alias ({@code *name}) and apply
 * merge keys ({@code <<: *name}). The plain {@link YAMLParser} hands an alias over as the anchor's
 * name in a string, which would silently turn {@code image: *image} into {@code image: "image"}.
 */
final class AnchorReplayingYamlFactory extends YAMLFactory {
  private static final long serialVersionUID = 1L;

  @Override
  protected YAMLParser _createParser(InputStream in, IOContext ctxt) throws IOException {
    return new YAMLAnchorReplayingParser(
        ctxt,
        _parserFeatures,
        _yamlParserFeatures,
        _loaderOptions,
        _objectCodec,
        _createReader(in, null, ctxt));
  }

  @Override
  protected YAMLParser _createParser(byte[] data, int offset, int len, IOContext ctxt)
      throws IOException {
    return new YAMLAnchorReplayingParser(
        ctxt,
        _parserFeatures,
        _yamlParserFeatures,
        _loaderOptions,
        _objectCodec,
        _createReader(data, offset, len, null, ctxt));
  }
}
