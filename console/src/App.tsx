import { Suspense, useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, ConfigProvider, Form, Input, Layout, Menu, Segmented, Space, Spin, Typography } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import { ApiError, api, currentToken, setToken, whenUnauthorized } from './api/client';
import { setLanguage, type Language } from './i18n';
import { lazyPage } from './lazyPage';
import { PageBoundary } from './PageBoundary';
import { completeSsoSignIn, may, ssoSettings, startSsoSignIn, type Me, type SsoSettings } from './sso';
import { MeContext } from './access';

// Each page is its own chunk, loaded on first use: the first screen downloads only what it shows.
const PAGE_COMPONENTS = {
  overview: lazyPage(() => import('./pages/Overview').then((m) => m.OverviewPage)),
  credentials: lazyPage(() => import('./pages/Credentials').then((m) => m.CredentialsPage)),
  groups: lazyPage(() => import('./pages/Groups').then((m) => m.GroupsPage)),
  teams: lazyPage(() => import('./pages/Teams').then((m) => m.TeamsPage)),
  accessKeys: lazyPage(() => import('./pages/AccessKeys').then((m) => m.AccessKeysPage)),
  routeCheck: lazyPage(() => import('./pages/RouteCheck').then((m) => m.RouteCheckPage)),
  requests: lazyPage(() => import('./pages/RequestLogs').then((m) => m.RequestLogsPage)),
  usage: lazyPage(() => import('./pages/Usage').then((m) => m.UsagePage)),
  health: lazyPage(() => import('./pages/Health').then((m) => m.HealthPage)),
  webhooks: lazyPage(() => import('./pages/Webhooks').then((m) => m.WebhooksPage)),
  settings: lazyPage(() => import('./pages/Settings').then((m) => m.SettingsPage)),
  audit: lazyPage(() => import('./pages/Audit').then((m) => m.AuditPage)),
};

const PAGES = ['overview', 'credentials', 'groups', 'teams', 'accessKeys', 'routeCheck', 'requests', 'usage', 'health', 'webhooks', 'settings', 'audit'] as const;
type PageName = (typeof PAGES)[number];

// the endpoint a page reads first: a page whose read the role does not reach is left out of the menu
const PAGE_READS: Record<PageName, [string, string]> = {
  overview: ['GET', '/overview'],
  credentials: ['GET', '/credentials'],
  groups: ['GET', '/groups'],
  teams: ['GET', '/teams'],
  accessKeys: ['GET', '/access-keys'],
  routeCheck: ['POST', '/route-check'],
  requests: ['GET', '/requests'],
  usage: ['GET', '/usage'],
  health: ['GET', '/health'],
  webhooks: ['GET', '/webhooks'],
  settings: ['GET', '/settings'],
  audit: ['GET', '/audit'],
};

/** The landing page: after sign-in and at `/` (or an unknown route) the console opens on the overview. */
export const LANDING_PAGE: PageName = 'overview';

/**
 * Whether the caller's role reaches a page (its first read); every page when /me is unknown. A team
 * role reads its own team (GET /teams/{id}) though not the list: the Teams page is its team's page.
 */
export function pageAllowed(me: Me | null, page: PageName): boolean {
  if (me === null) return true;
  if (page === 'teams' && me.team_id && may(me, 'GET', '/teams/{id}')) return true;
  return may(me, ...PAGE_READS[page]);
}

/** Where the caller lands: a team role on its team's page, others on the overview (or their first page). */
export function landingPage(me: Me | null): PageName {
  if (me?.team_id && pageAllowed(me, 'teams')) return 'teams';
  if (pageAllowed(me, LANDING_PAGE)) return LANDING_PAGE;
  return PAGES.find((name) => pageAllowed(me, name)) ?? LANDING_PAGE;
}

/** Whether the URL names a page (`#/teams`), rather than none (the landing page). */
function hashNamesPage(hash: string = window.location.hash): boolean {
  return (PAGES as readonly string[]).includes(hash.replace(/^#\/?/, ''));
}

/** The page a role may not open: said plainly instead of a page of errors. */
function Forbidden() {
  const { t } = useTranslation();
  return <Alert type="warning" showIcon message={t('forbiddenPage')} data-testid="page-forbidden" />;
}

/** The page a URL's hash names (`#/credentials`); the landing page for none or an unknown one. */
export function pageFromHash(hash: string = window.location.hash): PageName {
  const name = hash.replace(/^#\/?/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as PageName) : LANDING_PAGE;
}

function renderPage(page: PageName) {
  const Page = PAGE_COMPONENTS[page];
  return <Page />;
}

function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  return (
    <Space>
      <span>{t('language')}</span>
      <Segmented
        data-testid="language-switch"
        value={i18n.language}
        options={[
          { label: '中文', value: 'zh' },
          { label: 'English', value: 'en' },
        ]}
        onChange={(value) => setLanguage(value as Language)}
      />
    </Space>
  );
}

function Login({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState<SsoSettings>({ enabled: false });
  useEffect(() => {
    let live = true;
    ssoSettings().then(async (settings) => {
      if (!live) return;
      setSso(settings);
      if (!settings.enabled) return;
      try {
        const token = await completeSsoSignIn(settings);
        if (token && live) {
          setToken(token);
          onSignedIn();
        }
      } catch (e) {
        if (live) setError((e as Error).message);
      }
    });
    return () => {
      live = false;
    };
  }, [onSignedIn]);
  const signInWithSso = async () => {
    setBusy(true);
    setError(null);
    try {
      await startSsoSignIn(sso);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  const submit = async ({ token }: { token: string }) => {
    setBusy(true);
    setError(null);
    try {
      await api('GET', '/settings', undefined, token.trim());
      setToken(token.trim());
      onSignedIn();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? t('tokenRejected') : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ maxWidth: 420, margin: '10vh auto' }}>
      <Card title={t('appTitle')} extra={<LanguageSwitch />}>
        {sso.enabled && (
          <Space direction="vertical" style={{ width: '100%', marginBottom: 24 }}>
            <Button type="primary" block onClick={signInWithSso} loading={busy} id="sso-sign-in">
              {t('signInSso')}
            </Button>
            <Typography.Text type="secondary">{t('signInSsoHelp')}</Typography.Text>
          </Space>
        )}
        <Form layout="vertical" onFinish={submit} autoComplete="off">
          <Form.Item name="token" htmlFor="admin-token" label={t('adminToken')} extra={t('adminTokenHelp')} rules={[{ required: true }]}>
            <Input.Password id="admin-token" autoFocus />
          </Form.Item>
          {error && <Alert type="error" message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" loading={busy} id="sign-in">
            {t('signIn')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

export function App() {
  const { t, i18n } = useTranslation();
  const [signedIn, setSignedIn] = useState(() => currentToken() !== null);
  const [page, setPage] = useState<PageName>(() => pageFromHash());
  // below antd's lg breakpoint (992 px) the menu is a drawer over the page, opened from the header,
  // so it neither covers the page's first button nor squeezes the page
  const [narrow, setNarrow] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [me, setMe] = useState<Me | null>(null);
  // the page waits for /me (answered or failed), so it never asks for what the role is refused
  const [meSettled, setMeSettled] = useState(false);
  const onSignedIn = useCallback(() => setSignedIn(true), []);

  useEffect(() => {
    if (!signedIn) {
      setMe(null);
      setMeSettled(false);
      return;
    }
    let live = true;
    api<Me>('GET', '/me')
      .then((answer) => {
        if (!live) return;
        setMe(answer);
        // no page named in the URL: the role's landing page (a team role's team page)
        if (!hashNamesPage()) setPage(landingPage(answer));
        setMeSettled(true);
      })
      .catch(() => {
        if (!live) return;
        setMe(null);
        setMeSettled(true);
      });
    return () => {
      live = false;
    };
  }, [signedIn]);
  const visiblePages = PAGES.filter((name) => pageAllowed(me, name));

  useEffect(() => {
    whenUnauthorized(() => {
      setToken(null);
      setSignedIn(false);
    });
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    document.documentElement.lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  }, [i18n.language]);

  const signOut = () => {
    setToken(null);
    setSignedIn(false);
  };

  return (
    <ConfigProvider
      locale={i18n.language === 'en' ? enUS : zhCN}
      theme={{
        // AA contrast (4.5:1) for text on white: antd's default blue, red and grey text are about 3-4:1
        token: {
          borderRadius: 4,
          colorPrimary: '#0958d9',
          colorLink: '#0958d9',
          colorError: '#cf1322',
          colorSuccess: '#237804',
          colorWarning: '#ad6800',
          colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
          colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
          colorTextDescription: 'rgba(0, 0, 0, 0.65)',
          colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
        },
      }}
      button={{ autoInsertSpace: false }} // keep the spec's labels verbatim (暂停, 解除), no space inserted
    >
      {!signedIn ? (
        <Login onSignedIn={onSignedIn} />
      ) : (
        <MeContext.Provider value={me}>
        <Layout style={{ minHeight: '100vh' }}>
          <Layout.Sider
            width={200}
            theme="light"
            breakpoint="lg"
            collapsedWidth={0}
            trigger={null}
            collapsed={narrow && !menuOpen}
            onBreakpoint={(broken) => {
              setNarrow(broken);
              setMenuOpen(false);
            }}
            style={narrow ? { position: 'fixed', zIndex: 1000, top: 0, left: 0, height: '100vh', boxShadow: '2px 0 8px rgba(0,0,0,0.15)' } : undefined}
          >
            <Typography.Title level={5} style={{ padding: '16px 16px 0' }}>
              {t('appTitle')}
            </Typography.Title>
            <Menu
              mode="inline"
              selectedKeys={[page]}
              items={visiblePages.map((name) => ({ key: name, label: <span data-testid={`nav-${name}`}>{t(`nav.${name}`)}</span> }))}
              onClick={({ key }) => {
                window.location.hash = `#/${key}`;
                setMenuOpen(false);
              }}
            />
          </Layout.Sider>
          <Layout>
            <Layout.Header
              style={{ background: '#fff', display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: narrow ? '0 12px' : '0 24px', gap: 8 }}
            >
              <Space>
                {narrow && (
                  <Button
                    aria-label={t('openMenu')}
                    aria-expanded={menuOpen}
                    data-testid="menu-toggle"
                    onClick={() => setMenuOpen((open) => !open)}
                  >
                    ☰
                  </Button>
                )}
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {t(`nav.${page}`)}
                </Typography.Title>
              </Space>
              <Space size="large">
                {me && (
                  <span data-testid="user-menu" data-role={me.role} title={t('signedInVia', { via: me.via })}>
                    {me.subject} · {t(`role.${me.role}`)}
                    {me.team_id ? ` (${me.team_id})` : ''}
                  </span>
                )}
                <LanguageSwitch />
                <Button onClick={signOut} id="sign-out">
                  {t('signOut')}
                </Button>
              </Space>
            </Layout.Header>
            <Layout.Content style={{ padding: narrow ? 12 : 24, minWidth: 0 }}>
              <PageBoundary key={page}>
                {!meSettled ? (
                  <Spin data-testid="page-loading" />
                ) : pageAllowed(me, page) ? (
                  <Suspense fallback={<Spin data-testid="page-loading" />}>{renderPage(page)}</Suspense>
                ) : (
                  <Forbidden />
                )}
              </PageBoundary>
            </Layout.Content>
          </Layout>
        </Layout>
        </MeContext.Provider>
      )}
    </ConfigProvider>
  );
}
