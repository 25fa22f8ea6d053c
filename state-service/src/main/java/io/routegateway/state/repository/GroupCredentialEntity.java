package io.routegateway.state.repository;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code route_group_credentials}: the credential is in the group's pool. */
@Entity
@Table(name = "route_group_credentials")
@IdClass(GroupCredentialEntity.Key.class)
public class GroupCredentialEntity extends PanacheEntityBase {

    @Id
    @Column(name = "group_id")
    public String groupId;

    @Id
    @Column(name = "credential_id")
    public String credentialId;

    public GroupCredentialEntity() {}

    public GroupCredentialEntity(String groupId, String credentialId) {
        this.groupId = groupId;
        this.credentialId = credentialId;
    }

    /** The composite primary key. */
    public static class Key implements Serializable {

        public String groupId;
        public String credentialId;

        public Key() {}

        public Key(String groupId, String credentialId) {
            this.groupId = groupId;
            this.credentialId = credentialId;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(groupId, key.groupId)
                    && Objects.equals(credentialId, key.credentialId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(groupId, credentialId);
        }
    }
}
