/** Chinese texts: the product's own (spec). Keys are shared with en-US. */
const zhCN = {
  app: { siteName: '企业服务门户', footer: '© {{year}} {{site}}' },
  login: {
    title: '账号登录',
    subtitle: '欢迎使用{{site}}',
    username: '用户名',
    password: '密码',
    captcha: '验证码',
    captchaAlt: '图形验证码，点击刷新',
    submit: '登录',
    submitting: '登录中…',
    usernameRequired: '用户名不可以为空',
    passwordRequired: '密码不可以为空',
    captchaRequired: '验证码不可以为空',
    browserNotice:
      '本系统仅支持360浏览器极速模式、谷歌Chrome等主流浏览器；如登录后被重定向回登录页，请检查浏览器模式。',
    captchaFailed: '验证码加载失败，点击重试',
  },
  errors: {
    loggedOut: '你已被登出，可以取消继续留在该页面，或者重新登录',
    relogin: '重新登录',
    stay: '取消',
    ticketExpired: '票据过期',
    sessionTimeout: '登录已超时，请重新登录',
    noPermissionLogout: '当前用户无相关操作权限！',
    noPermissionTitle: '没有操作权限',
    forcedLogout: '即将登出',
    server: '服务器错误',
    network: '请求出现错误，请稍后再试',
    timeout: '请求超时，请稍后再试',
    routeFailed: '加载菜单失败，请稍后重试',
  },
  shell: {
    collapse: '收起菜单',
    expand: '展开菜单',
    logout: '退出登录',
    home: '首页',
    welcome: '欢迎回来，{{name}}',
    tenant: '所属园区',
    group: '当前企业',
    emptyMenu: '当前角色菜单为空，请联系管理员',
    pageEmpty: '该页面暂无内容',
    quickLinks: '常用功能',
    openExternal: '在新窗口打开',
    language: 'English',
  },
  notFound: { title: '404', subtitle: '抱歉，您访问的页面不存在', back: '返回首页' },
};

export default zhCN;
export type Messages = typeof zhCN;
