package io.trainyard.gateway.auth;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Answers every request to Dropwizard's admin tasks ({@code /tasks/*}) with 404 in the API's error
 * shape. The gateway needs none of them, and the admin port has no authentication: {@code POST
 * /tasks/log-level} could turn on header logging and collect every caller's bearer token, {@code
 * /tasks/gc} stall the JVM. Dropwizard registers them unconditionally, so they are cut off in
 * front.
 */
public final class AdminTasksOff implements Filter {
  public static final String PATH = "/tasks/*";

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException {
    var http = (HttpServletResponse) response;
    var requestId = UUID.randomUUID().toString();
    http.setStatus(HttpServletResponse.SC_NOT_FOUND);
    http.setContentType("application/json");
    http.setHeader("X-Request-Id", requestId);
    var body =
        "{\"code\":\"NOT_FOUND\",\"message\":\"admin tasks are disabled on this gateway\","
            + "\"errors\":[{\"field\":\"path\",\"message\":\"no admin task is served\"}],"
            + "\"requestId\":\""
            + requestId
            + "\"}";
    http.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
  }
}
