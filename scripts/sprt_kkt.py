#!/usr/bin/env python3
# Independent LLR: constrained maximum likelihood by Newton's method on the
# full KKT system (p_1..p_5, two multipliers) at 40 digits, in mpmath.
import mpmath as mp
mp.mp.dps = 40
A = [mp.mpf(i)/4 for i in range(5)]
def reg(c): return [mp.mpf(x) if x else mp.mpf('0.001') for x in c]
def mle(q, kind, target):
    # maximise sum q_i log p_i s.t. sum p = 1 and g(p) = 0
    def g(p):
        mu = sum(pi*a for pi,a in zip(p,A))
        if kind == 'mean': return mu - target
        var = sum(pi*(a-mu)**2 for pi,a in zip(p,A))
        return (mu - mp.mpf(1)/2) - target*mp.sqrt(var)
    def grad_g(p):
        mu = sum(pi*a for pi,a in zip(p,A))
        if kind == 'mean': return list(A)
        var = sum(pi*a*a for pi,a in zip(p,A)) - mu*mu
        s = mp.sqrt(var)
        return [a - target*(a*a - 2*mu*a)/(2*s) for a in A]
    def F(*v):
        p = v[:5]; al, be = v[5], v[6]
        gg = grad_g(p)
        eqs = [q[i]/p[i] - al - be*gg[i] for i in range(5)]
        eqs.append(sum(p) - 1)
        eqs.append(g(p))
        return eqs
    x0 = list(q) + [mp.mpf(1), mp.mpf(0)]
    sol = mp.findroot(F, x0, tol=mp.mpf(10)**-35, maxsteps=200)
    return [sol[i] for i in range(5)]
def llr(counts, elo0, elo1, model):
    c = reg(counts); N = sum(c); q = [x/N for x in c]
    if model == 'logistic':
        L = lambda e: 1/(1+mp.power(10, -mp.mpf(e)/400))
        p0, p1 = mle(q,'mean',L(elo0)), mle(q,'mean',L(elo1))
    else:
        t = lambda e: mp.mpf(e)/(800/mp.log(10))*mp.sqrt(2)
        p0, p1 = mle(q,'t',t(elo0)), mle(q,'t',t(elo1))
    return N*sum(q[i]*(mp.log(p1[i])-mp.log(p0[i])) for i in range(5))
cases = [
 ([100, 400, 1000, 420, 110], 0, 2, 'normalized'),
 ([100, 400, 1000, 420, 110], 0, 2, 'logistic'),
 ([12, 60, 140, 80, 25], -5, 5, 'logistic'),
 ([12, 60, 140, 80, 25], 0, 10, 'normalized'),
 ([0, 3, 10, 9, 4], 0, 20, 'normalized'),
 ([0, 3, 10, 9, 4], 0, 20, 'logistic'),
 ([1, 20, 300, 900, 779], 0, 2, 'normalized'),
 ([30, 25, 20, 10, 2], -10, 0, 'logistic'),
]
for c,e0,e1,m in cases:
    print(c, e0, e1, m, mp.nstr(llr(c,e0,e1,m), 15))
