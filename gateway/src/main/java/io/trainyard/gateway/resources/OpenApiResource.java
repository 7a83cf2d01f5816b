package io.trainyard.gateway.resources;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}: the API description. Written by hand next to the code; a test checks
 * that it lists exactly the resource methods Jersey serves.
 */
@Path("/openapi.json")
public final class OpenApiResource {
  private final byte[] document;

  public OpenApiResource() {
    try (var in = OpenApiResource.class.getResourceAsStream("/openapi.json")) {
      document = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @GET
  @PermitAll
  @Produces(MediaType.APPLICATION_JSON)
  public byte[] get() {
    return document;
  }
}
