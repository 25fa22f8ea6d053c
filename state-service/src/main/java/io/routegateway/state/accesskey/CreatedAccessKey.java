package io.routegateway.state.accesskey;

/**
 * The answer to creating an AccessKey: the only time the plaintext key is ever shown. Only its
 * SHA-256 is stored; a lost key cannot be recovered, only replaced.
 */
public record CreatedAccessKey(String key, String notice, AccessKeyView accessKey) {

    static final String NOTICE = "the key is shown only once; store it now";
}
