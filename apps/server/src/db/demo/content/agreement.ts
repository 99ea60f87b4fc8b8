/** The demo's registration agreement, in Chinese and English: data only. */

export const DEMO_AGREEMENT_EN = `<h3>User registration agreement of the Demo Park enterprise service platform</h3>
<p>Welcome to the Demo Park enterprise service platform (the “platform”). Please read this agreement carefully before you register; by ticking the box and clicking “Agree” you confirm that you have read and accept all of it.</p>
<h4>1. Registration</h4>
<p>1. You provide true, accurate and complete information about your enterprise and its contact person, and update it when it changes.</p>
<p>2. A registered enterprise is reviewed by the park; some services are unavailable until it has been approved.</p>
<h4>2. Account security</h4>
<p>1. Keep your account and password safe; you bear any loss caused by failing to do so.</p>
<p>2. If your account is misused, reset your password at once through “Forgot password” and contact the park administrator.</p>
<h4>3. Personal information</h4>
<p>The platform processes your personal information under the Personal Information Protection Law of the People’s Republic of China, only to provide park services, and does not give it to third parties without your consent.</p>
<h4>4. Other</h4>
<p>This agreement is interpreted, and disputes about it are settled, under the laws of the People’s Republic of China.</p>`;

export const DEMO_AGREEMENT = `<h3>演示园区企业服务平台用户注册协议</h3>
<p>欢迎注册演示园区企业服务平台（以下简称“平台”）。请在注册前仔细阅读本协议，勾选并点击“同意”即表示您已阅读并接受本协议的全部内容。</p>
<h4>一、账号注册</h4>
<p>1. 您应提供真实、准确、完整的企业及联系人信息，并在信息变更时及时更新。</p>
<p>2. 企业注册后需经园区审核，审核通过前部分服务不可用。</p>
<h4>二、账号安全</h4>
<p>1. 您应妥善保管账号和密码，因保管不善造成的损失由您自行承担。</p>
<p>2. 发现账号被盗用时，请立即通过“忘记密码”重置密码并联系园区管理员。</p>
<h4>三、个人信息保护</h4>
<p>平台依照《中华人民共和国个人信息保护法》处理您的个人信息，仅用于提供园区服务，未经您同意不向第三方提供。</p>
<h4>四、其他</h4>
<p>本协议的解释及争议解决适用中华人民共和国法律。</p>`;
