package io.routegateway.state.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;

/**
 * {@code /console} is a directory of static files (the console module's build): the bare path
 * redirects to {@code /console/}, whose {@code index.html} the static handler serves.
 */
@ApplicationScoped
public class ConsoleRedirect {

    public static final String PATH = "/console/";

    void route(@Observes Router router) {
        router.getWithRegex("/console").handler(context -> context.redirect(PATH));
    }
}
