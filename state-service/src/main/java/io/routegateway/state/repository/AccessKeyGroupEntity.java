package io.routegateway.state.repository;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code access_key_groups}: one group of a key's scope, in failover order. */
@Entity
@Table(name = "access_key_groups")
@IdClass(AccessKeyGroupEntity.Key.class)
public class AccessKeyGroupEntity extends PanacheEntityBase {

    @Id
    @Column(name = "access_key_id")
    public String accessKeyId;

    @Id
    @Column(name = "group_id")
    public String groupId;

    /** Ascending = failover order. */
    @Column(nullable = false)
    public int position;

    public AccessKeyGroupEntity() {}

    public AccessKeyGroupEntity(String accessKeyId, String groupId, int position) {
        this.accessKeyId = accessKeyId;
        this.groupId = groupId;
        this.position = position;
    }

    /** The composite primary key. */
    public static class Key implements Serializable {

        public String accessKeyId;
        public String groupId;

        public Key() {}

        public Key(String accessKeyId, String groupId) {
            this.accessKeyId = accessKeyId;
            this.groupId = groupId;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(accessKeyId, key.accessKeyId)
                    && Objects.equals(groupId, key.groupId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(accessKeyId, groupId);
        }
    }
}
